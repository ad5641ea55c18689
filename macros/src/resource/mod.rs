//! `#[resource("uri")]`: a function reading an MCP resource, or a resource template when the URI
//! has `{variables}`; the function's parameters (after an optional context) are the variables.

mod expand;
mod model;
mod parse;
mod template;

use crate::common::entry::{self, FnAttribute};
use darling::error::Accumulator;
use proc_macro2::TokenStream;

/// `#[resource]`, for the entry driver.
struct ResourceAttr;

impl FnAttribute for ResourceAttr {
    const NAME: &'static str = crate::symbols::RESOURCE;
    const MISPLACED: &'static str =
        "`#[resource(\"uri\")]` goes on a function: `async fn name(..) -> ResourceContents`";
    type Model = model::Resource;

    fn model(args: TokenStream, func: &mut syn::ItemFn, acc: &mut Accumulator) -> model::Resource {
        let args = parse::parse(args, acc);
        model::model(args, &func.attrs, &mut func.sig, acc)
    }

    fn expand(resource: &model::Resource, func: &syn::ItemFn) -> TokenStream {
        expand::expand(resource, func)
    }

    fn stub(resource: &model::Resource, func: &syn::ItemFn) -> TokenStream {
        expand::stub(resource, func)
    }
}

/// Expands `#[resource("uri", ..)] fn ..`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    entry::expand::<ResourceAttr>(args, item)
}
