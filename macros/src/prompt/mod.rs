//! `#[prompt]`: a function rendering an MCP prompt. Its parameters (after an optional context)
//! are the prompt's arguments, strings on the wire; the listing's `arguments` (names, required,
//! descriptions) come from the same generated schema the arguments parse with.

mod expand;
mod model;
mod parse;

use crate::common::entry::{self, FnAttribute};
use darling::error::Accumulator;
use proc_macro2::TokenStream;

/// `#[prompt]`, for the entry driver.
struct PromptAttr;

impl FnAttribute for PromptAttr {
    const NAME: &'static str = crate::symbols::PROMPT;
    const MISPLACED: &'static str = "`#[prompt]` goes on a function: `async fn name(..) -> String`";
    type Model = model::Prompt;

    fn model(args: TokenStream, func: &mut syn::ItemFn, acc: &mut Accumulator) -> model::Prompt {
        let args = parse::parse(args, acc);
        model::model(args, &func.attrs, &mut func.sig, acc)
    }

    fn expand(prompt: &model::Prompt, func: &syn::ItemFn) -> TokenStream {
        expand::expand(prompt, func)
    }

    fn stub(prompt: &model::Prompt, func: &syn::ItemFn) -> TokenStream {
        expand::stub(prompt, func)
    }
}

/// Expands `#[prompt(args)] fn ..`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    entry::expand::<PromptAttr>(args, item)
}
