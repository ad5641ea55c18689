//! `#[tool]` on a free function.

pub mod expand;
pub mod model;
pub mod parse;

use crate::common::entry::{self, FnAttribute};
use crate::common::signature::Place;
use darling::error::Accumulator;
use proc_macro2::TokenStream;

/// `#[tool]` on a free function, for the entry driver.
struct ToolAttr;

impl FnAttribute for ToolAttr {
    const NAME: &'static str = crate::symbols::TOOL;
    const MISPLACED: &'static str = "`#[tool]` goes on a function: `async fn name(..)`";
    type Model = model::Tool;

    fn model(args: TokenStream, func: &mut syn::ItemFn, acc: &mut Accumulator) -> model::Tool {
        let args = parse::parse(args, acc);
        model::model(args, &func.attrs, &mut func.sig, Place::Free, acc)
    }

    fn expand(tool: &model::Tool, func: &syn::ItemFn) -> TokenStream {
        expand::expand_free(tool, func)
    }

    fn stub(tool: &model::Tool, func: &syn::ItemFn) -> TokenStream {
        expand::stub(tool, func)
    }
}

/// Expands `#[tool(args)] item`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    entry::expand::<ToolAttr>(args, item)
}
