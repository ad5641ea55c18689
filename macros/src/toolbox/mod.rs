//! `#[toolbox]` on an `impl` block: serves its `#[tool]` methods, which share `&self` state. The
//! container owns the `#[tool]` helper attributes of its methods and strips them, so it sees every
//! tool at once (duplicate names are caught here, CONTRIBUTING.md, "A macro is parse, then model,
//! then expand").

mod expand;
mod model;
mod parse;

use crate::common::entry::{self, Attribute};
use darling::error::Accumulator;
use proc_macro2::TokenStream;

/// `#[toolbox]`, for the entry driver.
struct ToolboxAttr;

impl Attribute for ToolboxAttr {
    const NAME: &'static str = crate::symbols::TOOLBOX;
    const MISPLACED: &'static str =
        "`#[toolbox]` goes on an `impl` block whose methods carry `#[tool]`";
    type Item = syn::ItemImpl;
    type Model = model::Toolbox;

    fn item(tokens: TokenStream) -> Option<syn::ItemImpl> {
        parse::parse_impl(tokens)
    }

    fn model(
        args: TokenStream,
        block: &mut syn::ItemImpl,
        acc: &mut Accumulator,
    ) -> model::Toolbox {
        let args = parse::parse(args, acc);
        model::model(args, block, acc)
    }

    fn expand(toolbox: &model::Toolbox, block: &syn::ItemImpl) -> TokenStream {
        expand::expand(toolbox, block)
    }

    fn stub(toolbox: &model::Toolbox, block: &syn::ItemImpl) -> TokenStream {
        expand::stub(toolbox, block)
    }
}

/// Expands `#[toolbox(args)] impl ... { ... }`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    entry::expand::<ToolboxAttr>(args, item)
}
