//! `#[tool]` on a free function.

pub mod expand;
pub mod model;
pub mod parse;

use crate::common::signature::Place;
use proc_macro2::{Span, TokenStream};
use quote::quote;

/// Expands `#[tool(args)] item`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut func = match crate::common::parse_fn(item.clone()) {
        Some(f) => f,
        None => {
            let e = darling::Error::custom("`#[tool]` goes on a function: `async fn name(..)`")
                .with_span(&Span::call_site())
                .write_errors();
            return quote!(#item #e);
        }
    };
    let mut acc = darling::Error::accumulator();
    let parsed = parse::parse(args, &mut acc);
    let model = model::model(parsed, &func.attrs, &mut func.sig, Place::Free, &mut acc);
    let out = match acc.finish() {
        Ok(()) => expand::expand_free(&model, &func),
        Err(e) => {
            let errors = e.write_errors();
            // In an `impl` block (a receiver), a stub struct would be a second error.
            let stub = func
                .sig
                .receiver()
                .is_none()
                .then(|| expand::stub(&model.krate, &func.sig.ident, &func.vis));
            quote!(#func #stub #errors)
        }
    };
    crate::debug("tool", &out);
    out
}
