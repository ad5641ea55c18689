//! `#[resource("uri")]`: a function reading an MCP resource, or a resource template when the URI
//! has `{variables}`; the function's parameters (after an optional context) are the variables.

mod expand;
mod model;
mod parse;
mod template;

use proc_macro2::{Span, TokenStream};
use quote::quote;

/// Expands `#[resource("uri", ..)] fn ..`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let Some(mut func) = crate::common::parse_fn(item.clone()) else {
        let e = darling::Error::custom(
            "`#[resource(\"uri\")]` goes on a function: `async fn name(..) -> ResourceContents`",
        )
        .with_span(&Span::call_site())
        .write_errors();
        return quote!(#item #e);
    };
    let mut acc = darling::Error::accumulator();
    let parsed = parse::parse(args, &mut acc);
    let (krate, resource) = model::model(parsed, &func.attrs, &mut func.sig, &mut acc);
    let out = match (acc.finish(), resource) {
        (Ok(()), Some(r)) => expand::expand(&r, &func),
        (result, _) => {
            let errors = result.err().map(darling::Error::write_errors);
            // In an `impl` block (a receiver), a stub struct would be a second error.
            let stub = func
                .sig
                .receiver()
                .is_none()
                .then(|| expand::stub(&krate, &func.sig.ident, &func.vis));
            quote!(#func #stub #errors)
        }
    };
    crate::debug("resource", &out);
    out
}
