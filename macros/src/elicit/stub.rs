//! What a question macro emits next to its errors (CONTRIBUTING.md, "Errors": one error per
//! mistake): the question as it would expand, so that `asks = [q]` and `cx.ask(q(..))` elsewhere
//! add no second error (`q` is still a question, and still answers its type), with a rendering
//! never run, a fallback that refuses and no checks. A signature the expansion cannot carry (type
//! generics, a pattern or `impl Trait` input, `-> impl Trait`) gets the function as written and its
//! hidden type, still a question for `asks = [..]`.

use super::expand::{self, Stage};
use super::model::Question;
use crate::paths::Paths;
use proc_macro2::{TokenStream, TokenTree};
use quote::{ToTokens, quote};

/// The stand-in for `func` (a free function), or `written` (the function as the user wrote it,
/// or with a body that is never run) and its hidden type.
pub fn stub(q: &Question, func: &syn::ItemFn, written: TokenStream) -> TokenStream {
    if expands(q, func) {
        return expand::items(q, func, Stage::Stub);
    }
    let marker = expand::marker_for(func);
    let decl = expand::decl(q, Stage::Stub, &Paths::new(&q.krate));
    let cfgs = expand::cfgs(func);
    quote! {
        #written
        #marker
        #(#cfgs)*
        const _: () = { #decl };
    }
}

/// Whether the expansion can carry the signature: lifetime generics only, and every input a
/// plain name the model kept, with no `impl Trait` in it or in the return type.
fn expands(q: &Question, func: &syn::ItemFn) -> bool {
    let generics = &func.sig.generics;
    let lifetimes_only = generics
        .params
        .iter()
        .all(|p| matches!(p, syn::GenericParam::Lifetime(_)))
        && generics.where_clause.is_none();
    let plain = func.sig.inputs.iter().all(|input| match input {
        syn::FnArg::Typed(pt) => {
            matches!(&*pt.pat, syn::Pat::Ident(p) if p.subpat.is_none()) && !has_impl(&*pt.ty)
        }
        syn::FnArg::Receiver(_) => false,
    });
    let kept = q.sig.args.len() == func.sig.inputs.len();
    lifetimes_only && plain && kept && !has_impl(&q.sig.output)
}

/// Whether `impl` occurs in the tokens of `node` (`impl Trait`, at any depth).
fn has_impl(node: &impl ToTokens) -> bool {
    fn any(tokens: TokenStream) -> bool {
        tokens.into_iter().any(|tt| match tt {
            TokenTree::Ident(i) => i == "impl",
            TokenTree::Group(g) => any(g.stream()),
            _ => false,
        })
    }
    any(node.to_token_stream())
}
