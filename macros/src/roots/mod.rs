//! `#[roots(fallback = ..)]` on a question function without a body: the client's roots. The
//! model and expansion are the question macros' (`elicit/`), in [`Mode::Roots`]; only the item
//! differs, since `fn workspace(..) -> Roots;` has no body to render.

use crate::common::entry::{self, Attribute};
use crate::diag::err_at;
use crate::elicit::expand as question;
use crate::elicit::model::{Mode, Question};
use crate::paths::PANIC;
use crate::sample::parse;
use crate::symbols::ROOTS;
use darling::error::Accumulator;
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::parse::{ParseStream, Parser};

/// `fn workspace(..) -> Roots;`: the signature, with an empty block standing in for the body it
/// has not got. It is never emitted as written (a free function needs a body): the expansion
/// replaces it, and with errors the stub gives it a body that is never run.
pub struct RootsFn {
    /// The function, with an empty block.
    func: syn::ItemFn,
    /// A body the user wrote, which a roots question must not have (an error at it).
    body: Option<syn::Block>,
}

impl ToTokens for RootsFn {
    fn to_tokens(&self, _: &mut TokenStream) {}
}

/// `[attrs] [vis] fn name(..) -> Roots;`, or with a body (reported by the model).
fn roots_fn(input: ParseStream) -> syn::Result<RootsFn> {
    let attrs = input.call(syn::Attribute::parse_outer)?;
    let vis = input.parse()?;
    let sig = input.parse()?;
    let body = if input.peek(syn::Token![;]) {
        input.parse::<syn::Token![;]>()?;
        None
    } else {
        Some(input.parse()?)
    };
    let func = syn::ItemFn {
        attrs,
        vis,
        modifiers: syn::FnModifiers::default(),
        sig,
        block: Box::new(syn::parse_quote!({})),
    };
    Ok(RootsFn { func, body })
}

/// `#[roots]`, for the entry driver.
struct RootsAttr;

impl Attribute for RootsAttr {
    const NAME: &'static str = ROOTS;
    const MISPLACED: &'static str = "`#[roots(..)]` goes on a function without a body: `fn workspace(folders: &[String]) -> Roots;`";
    type Item = RootsFn;
    type Model = Question;

    fn item(tokens: TokenStream) -> Option<RootsFn> {
        Parser::parse2(roots_fn, tokens).ok()
    }

    fn model(args: TokenStream, item: &mut RootsFn, acc: &mut Accumulator) -> Question {
        let args = parse(ROOTS, args, acc);
        if let Some(body) = &item.body {
            acc.push(err_at(
                body.brace_token.span.open(),
                "a `#[roots]` question has no body: the client lists its roots, and the fallback reads the inputs; write `fn workspace(..) -> Roots;`",
            ));
        }
        let (fallback, krate) = args.into_parts();
        crate::elicit::model::question(Mode::Roots, fallback, krate, &mut item.func, acc)
    }

    fn expand(q: &Question, item: &RootsFn) -> TokenStream {
        question::expand(q, &item.func)
    }

    /// The question as it would expand (`elicit::stub`); when the signature cannot be carried,
    /// the function with a body that is never run (an empty one would be a second error, a `()`
    /// where `Roots` is expected) and the hidden type; inside an `impl` block, where the
    /// attribute is already an error, the method only.
    fn stub(q: &Question, item: &RootsFn) -> TokenStream {
        let mut written = item.func.clone();
        *written.block = syn::parse_quote!({ #PANIC!() });
        written
            .attrs
            .push(syn::parse_quote!(#[allow(unused_variables)]));
        match written.sig.receiver() {
            Some(_) => written.to_token_stream(),
            None => crate::elicit::stub::stub(q, &item.func, written.to_token_stream()),
        }
    }
}

/// Expands `#[roots(args)] item`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    entry::expand::<RootsAttr>(args, item)
}
