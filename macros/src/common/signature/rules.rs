//! What a function under one of our attributes cannot be: its qualifiers, its receiver and its
//! return type. Each rule is one error at the culprit.

use super::{Place, peel};
use crate::diag::{err_at, err_on};
use crate::symbols::{ROOTS, TOOL};
use darling::error::Accumulator;
use syn::Type;
use syn::spanned::Spanned;

/// The return type, `()` when omitted. `impl Trait` is an error at `impl`: the result is
/// converted through a trait on its type, which must be nameable in the generated code.
pub fn output(attr: &str, output: &syn::ReturnType, acc: &mut Accumulator) -> Type {
    let output = match output {
        syn::ReturnType::Default => syn::parse_quote!(()),
        syn::ReturnType::Type(_, t) => (**t).clone(),
    };
    if let Type::ImplTrait(it) = peel(&output) {
        acc.push(err_on(
            &it.impl_token,
            format!(
                "`#[{attr}]` functions cannot return `impl Trait`: the result is converted through a trait on its type; write the concrete type"
            ),
        ));
    }
    output
}

/// The qualifiers a handler cannot have: type or const generics (one handler per function; a
/// lifetime is fine), `unsafe` (the generated call could not uphold its contract), C variadics;
/// and for a question function, `async` (it renders from its inputs, before anything is asked).
pub fn check_qualifiers(attr: &str, sig: &syn::Signature, place: Place, acc: &mut Accumulator) {
    check_generics(attr, &sig.generics, acc);
    if let syn::Safety::Unsafe(token) = &sig.safety {
        acc.push(err_on(
            token,
            format!(
                "`#[{attr}]` functions cannot be `unsafe`: the server calls them; remove `unsafe` and use an `unsafe` block inside"
            ),
        ));
    }
    if let Some(v) = &sig.variadic {
        acc.push(err_on(
            v,
            format!("`#[{attr}]` functions cannot be variadic"),
        ));
    }
    if let (Place::Question, Some(token)) = (place, &sig.asyncness) {
        let msg = if attr == ROOTS {
            format!("`#[{attr}]` functions have no body, so nothing to await; remove `async`")
        } else {
            format!("`#[{attr}]` question functions render from their inputs only; remove `async`")
        };
        acc.push(err_on(token, msg));
    }
}

/// Type or const generics, or a `where` clause bounding a type, are an error at the first one.
fn check_generics(attr: &str, generics: &syn::Generics, acc: &mut Accumulator) {
    let typed = |p: &&syn::GenericParam| !matches!(p, syn::GenericParam::Lifetime(_));
    let bounded = |w: &&syn::WhereClause| {
        w.predicates
            .iter()
            .any(|p| !matches!(p, syn::WherePredicate::Lifetime(_)))
    };
    if let Some(param) = generics.params.iter().find(typed) {
        acc.push(err_on(
            param,
            format!("`#[{attr}]` functions cannot be generic; use concrete types"),
        ));
    } else if let Some(clause) = generics.where_clause.as_ref().filter(bounded) {
        acc.push(err_on(
            clause,
            format!("`#[{attr}]` functions cannot have a `where` clause; use concrete types"),
        ));
    }
}

/// The receiver: only a `#[toolbox]` method has one, and it is `&self`.
pub fn check_receiver(attr: &str, r: &syn::Receiver, place: Place, acc: &mut Accumulator) {
    let misplaced = match place {
        Place::Method => None,
        Place::Free if attr == TOOL => Some(format!(
            "`#[{attr}]` on a method needs `#[rondo_mcp::toolbox]` on its `impl` block"
        )),
        Place::Free => Some(format!(
            "`#[{attr}]` goes on a free function, not a method; move it out of the `impl` block"
        )),
        Place::Question if attr == ROOTS => Some(format!(
            "`#[{attr}]` functions take no `self`: their fallback gets their inputs only; move the function out of the `impl` block and pass what the fallback reads as parameters"
        )),
        Place::Question => Some(format!(
            "`#[{attr}]` functions render from their inputs only and take no `self`; move the function out of the `impl` block and pass what it reads as parameters"
        )),
    };
    if let Some(msg) = misplaced {
        acc.push(err_on(r, msg));
        return;
    }
    let culprit = match &r.kind {
        syn::ReceiverKind::Reference(_, _, None) => return,
        syn::ReceiverKind::Reference(_, _, Some(m)) => m.span(),
        syn::ReceiverKind::Typed(_, ty) => ty.span(),
        _ => r.self_token.span(),
    };
    acc.push(err_at(
        culprit,
        format!(
            "`#[{attr}]` methods take `&self`: the server shares one instance across requests; write `&self`"
        ),
    ));
}
