//! The shape of a `#[tool]`, `#[prompt]` or `#[resource]` function: receiver, context and
//! named arguments. Context by position, arguments by name (docs/design.md §3): a reference
//! parameter is the context and must come first; every other parameter is an argument.

use crate::common::unraw;
use crate::diag::{err_at, err_on};
use crate::keys::known_keys;
use crate::symbols::{ARG, ARG_KEYS, ARGS, TOOL};
use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{FnArg, Pat, Type};

/// The analysed signature.
pub struct Signature {
    /// The function's name: the default tool or prompt name, and the name of the hidden type.
    pub ident: syn::Ident,
    /// `async fn`: the generated call adds `.await`.
    pub is_async: bool,
    /// The referent type of the context parameter (`Cx` in `cx: &Cx`), if there is one; passed
    /// through `__private::context::<T>` so a wrong type is one error at it.
    pub context: Option<Type>,
    /// The named arguments, in parameter order, which is the order of the call.
    pub args: Vec<Arg>,
    /// The return type (`()` when omitted), converted through the macro's `Into*Result` trait.
    pub output: Type,
}

/// One named argument.
pub struct Arg {
    /// The parameter's identifier: the field of the arguments struct.
    pub ident: syn::Ident,
    /// Its type, spliced at the user's span so trait errors point at it.
    pub ty: Type,
    /// Its name on the wire (`rename = ..`, or the identifier without `r#`).
    pub wire: String,
    /// `#[arg(description = ..)]`: the argument's description in the schema.
    pub description: Option<String>,
    /// `#[args]`: the struct's fields are the arguments, so it has no wire name of its own.
    pub flatten: bool,
    /// The parameter's span, for errors about it found after analysis (duplicates, URI
    /// variables).
    pub span: Span,
}

/// The keys of `#[arg(..)]` on a parameter, as written.
#[derive(FromMeta, Default)]
struct ArgArgs {
    /// `description = ".."`: the argument's description in the schema.
    description: Option<String>,
    /// `rename = ".."`: the name on the wire, when the Rust name cannot be it.
    rename: Option<String>,
}

/// Where the function sits: a free function, or a method of a `#[toolbox]` impl.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A free function.
    Free,
    /// A method; `&self` is required.
    Method,
}

/// Analyses `sig` for the attribute `attr`, stripping `#[arg]`/`#[args]` from its parameters.
pub fn analyze(
    attr: &str,
    sig: &mut syn::Signature,
    place: Place,
    acc: &mut Accumulator,
) -> Signature {
    check_qualifiers(attr, sig, acc);
    let Params {
        has_self,
        context,
        args,
    } = params(attr, sig, place, acc);
    if place == Place::Method && !has_self {
        acc.push(err_on(
            &sig.ident,
            format!("`#[{attr}]` methods in a `#[toolbox]` impl take `&self`; add it as the first parameter"),
        ));
    }
    Signature {
        ident: sig.ident.clone(),
        is_async: sig.asyncness.is_some(),
        context,
        args,
        output: output(attr, &sig.output, acc),
    }
}

/// The parameters of a function, sorted out.
struct Params {
    /// Whether there is a receiver: a `#[toolbox]` method needs `&self`.
    has_self: bool,
    /// The context's referent type, when the first typed parameter is a reference.
    context: Option<Type>,
    /// Every other typed parameter, in order.
    args: Vec<Arg>,
}

/// Sorts the parameters into receiver, context and arguments; each misplaced or malformed one is
/// an error at it, and the rest are still analysed.
fn params(attr: &str, sig: &mut syn::Signature, place: Place, acc: &mut Accumulator) -> Params {
    let mut params = Params {
        has_self: false,
        context: None,
        args: Vec::new(),
    };
    let mut first_typed = true;
    for input in sig.inputs.iter_mut() {
        match input {
            FnArg::Receiver(r) => {
                params.has_self = true;
                check_receiver(attr, r, place, acc);
            }
            FnArg::Typed(pt) => {
                let is_first = std::mem::replace(&mut first_typed, false);
                let arg = typed_param(attr, pt, is_first, &mut params.context, acc);
                params.args.extend(arg);
            }
        }
    }
    params
}

/// One typed parameter: the context (a reference, recorded in `context`) or a named argument.
fn typed_param(
    attr: &str,
    pt: &mut syn::PatType,
    is_first: bool,
    context: &mut Option<Type>,
    acc: &mut Accumulator,
) -> Option<Arg> {
    let (flatten, arg_meta) = take_param_attrs(&mut pt.attrs, acc);
    if let Type::Reference(r) = peel(&pt.ty) {
        context_param(attr, r, is_first, flatten, context, acc);
        return None;
    }
    let Some(ident) = simple_ident(&pt.pat) else {
        acc.push(err_on(
            &pt.pat,
            format!(
                "`#[{attr}]` arguments must be plain names such as `city`, not patterns; bind the value to a name and destructure it in the body"
            ),
        ));
        return None;
    };
    let wire = arg_meta.rename.clone().unwrap_or_else(|| unraw(&ident));
    Some(Arg {
        ident,
        ty: (*pt.ty).clone(),
        wire,
        description: arg_meta.description,
        flatten: flatten.is_some(),
        span: pt.span(),
    })
}

/// The return type, `()` when omitted. `impl Trait` is an error at `impl`: the result is
/// converted through a trait on its type, which must be nameable in the generated code.
fn output(attr: &str, output: &syn::ReturnType, acc: &mut Accumulator) -> Type {
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
/// lifetime is fine), `unsafe` (the generated call could not uphold its contract), C variadics.
fn check_qualifiers(attr: &str, sig: &syn::Signature, acc: &mut Accumulator) {
    let generics = &sig.generics;
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
}

/// `Cx` in `&Cx` behind the invisible group a `macro_rules!` `$t:ty` fragment adds.
fn peel(ty: &Type) -> &Type {
    match ty {
        Type::Group(g) => peel(&g.elem),
        Type::Paren(p) => peel(&p.elem),
        other => other,
    }
}

/// The receiver: only a `#[toolbox]` method has one, and it is `&self`.
fn check_receiver(attr: &str, r: &syn::Receiver, place: Place, acc: &mut Accumulator) {
    if place == Place::Free {
        let msg = if attr == TOOL {
            format!("`#[{attr}]` on a method needs `#[rondo_mcp::toolbox]` on its `impl` block")
        } else {
            format!(
                "`#[{attr}]` goes on a free function, not a method; move it out of the `impl` block"
            )
        };
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

/// The context parameter: first, borrowed shared, not `#[args]`; recorded in `context`.
fn context_param(
    attr: &str,
    r: &syn::TypeReference,
    is_first: bool,
    flatten: Option<Span>,
    context: &mut Option<Type>,
    acc: &mut Accumulator,
) {
    if !is_first {
        acc.push(err_on(
            r,
            format!(
                "a reference parameter is the context and must come first; `#[{attr}]` arguments are owned \
                 values (write `String` rather than `&str`)"
            ),
        ));
    } else if let Some(m) = &r.mutability {
        acc.push(err_on(
            m,
            "the context is borrowed shared; write `&Cx`, not `&mut Cx`",
        ));
    } else if let Some(span) = flatten {
        acc.push(err_at(
            span,
            "`#[args]` cannot be the context; put it on an owned struct argument",
        ));
    } else {
        *context = Some((*r.elem).clone());
    }
}

/// Removes `#[args]` and `#[arg(..)]` from a parameter and reads them; the span is that of
/// `#[args]`, when present.
fn take_param_attrs(
    attrs: &mut Vec<syn::Attribute>,
    acc: &mut Accumulator,
) -> (Option<Span>, ArgArgs) {
    let mut flatten = None;
    let mut meta = ArgArgs::default();
    attrs.retain(|a| {
        if a.path().is_ident(ARGS) {
            if let Some(extra) = args_extra(&a.meta) {
                acc.push(err_at(extra, "`#[args]` takes no arguments; write `#[args]`"));
            }
            flatten = Some(a.path().span());
            false
        } else if a.path().is_ident(ARG) {
            let list = match &a.meta {
                syn::Meta::List(l) => {
                    NestedMeta::parse_meta_list(l.tokens.clone()).map_err(darling::Error::from)
                }
                _ => Err(err_on(
                    a.path(),
                    "`#[arg]` takes arguments; write `#[arg(description = \"...\")]` or `#[arg(rename = \"...\")]`",
                )),
            };
            if let Some(list) = acc.handle(list) {
                let list = known_keys(ARG, ARG_KEYS, list, acc);
                if let Some(m) = acc.handle(ArgArgs::from_list(&list)) {
                    meta = m;
                }
            }
            false
        } else {
            true
        }
    });
    (flatten, meta)
}

/// Where `#[args(..)]` or `#[args = ..]` goes beyond `#[args]`.
fn args_extra(meta: &syn::Meta) -> Option<Span> {
    match meta {
        syn::Meta::Path(_) => None,
        syn::Meta::List(l) => Some(l.delimiter.span().join()),
        syn::Meta::NameValue(nv) => Some(nv.eq_token.span),
    }
}

/// The name of a plain `name` pattern; arguments are looked up by it.
fn simple_ident(pat: &Pat) -> Option<syn::Ident> {
    match pat {
        Pat::Ident(p) if p.subpat.is_none() && p.by_ref.is_none() => Some(p.ident.clone()),
        _ => None,
    }
}

/// An error for a duplicate wire name among arguments, at the second one.
pub fn check_duplicate_args(attr: &str, args: &[Arg], acc: &mut Accumulator) {
    for (i, a) in args.iter().enumerate() {
        let first = args[..i]
            .iter()
            .find(|b| !b.flatten && !a.flatten && b.wire == a.wire);
        if let Some(first) = first {
            acc.push(err_at(
                a.span,
                format!(
                    "two `#[{attr}]` arguments are named `{}` (`{}` and `{}`); rename one with `#[arg(rename = \"...\")]`",
                    a.wire, first.ident, a.ident
                ),
            ));
        }
    }
}
