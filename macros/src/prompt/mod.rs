//! `#[prompt]`: a function rendering an MCP prompt. Its parameters (after an optional context)
//! are the prompt's arguments, strings on the wire; the listing's `arguments` (names, required,
//! descriptions) come from the same generated schema the arguments parse with.

mod expand;
mod model;
mod parse;

use proc_macro2::{Span, TokenStream};
use quote::quote;

/// Expands `#[prompt(args)] fn ..`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut func = match crate::common::parse_fn(item.clone()) {
        Some(f) => f,
        None => {
            let e = darling::Error::custom(
                "`#[prompt]` goes on a function: `async fn name(..) -> String`",
            )
            .with_span(&Span::call_site())
            .write_errors();
            return quote!(#item #e);
        }
    };
    let mut acc = darling::Error::accumulator();
    let parsed = parse::parse(args, &mut acc);
    let prompt = model::model(parsed, &func.attrs, &mut func.sig, &mut acc);
    let out = match acc.finish() {
        Ok(()) => expand::expand(&prompt, &func),
        Err(e) => {
            let errors = e.write_errors();
            // In an `impl` block (a receiver), a stub struct would be a second error.
            let stub = func
                .sig
                .receiver()
                .is_none()
                .then(|| expand::stub(&prompt.krate, &func.sig.ident, &func.vis));
            quote!(#func #stub #errors)
        }
    };
    crate::debug("prompt", &out);
    out
}
