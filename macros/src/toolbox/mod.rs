//! `#[toolbox]` on an `impl` block: serves its `#[tool]` methods, which share `&self` state.
//! The container owns the `#[tool]` helper attributes of its methods and strips them, so it sees
//! every tool at once (duplicate names are caught here, STYLE.md §2).

mod expand;
mod model;
mod parse;

use proc_macro2::{Span, TokenStream};
use quote::quote;

/// Expands `#[toolbox(args)] impl ... { ... }`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut block = match parse::parse_impl(item.clone()) {
        Some(b) => b,
        None => {
            let e = darling::Error::custom(
                "`#[toolbox]` goes on an `impl` block whose methods carry `#[tool]`",
            )
            .with_span(&Span::call_site())
            .write_errors();
            return quote!(#item #e);
        }
    };
    let mut acc = darling::Error::accumulator();
    let parsed = parse::parse(args, &mut acc);
    let toolbox = model::model(parsed, &mut block, &mut acc);
    let out = match acc.finish() {
        Ok(()) => expand::expand(&toolbox, &block),
        Err(e) => {
            let errors = e.write_errors();
            let stub = expand::stub(&block, &toolbox.krate);
            quote!(#block #stub #errors)
        }
    };
    crate::debug("toolbox", &out);
    out
}
