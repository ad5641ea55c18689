//! `#[elicit(form | url, fallback = ..)]` on a question function.

pub mod expand;
pub mod model;
pub mod parse;
pub mod stub;

use crate::common::entry::{self, FnAttribute};
use darling::error::Accumulator;
use proc_macro2::TokenStream;
use quote::ToTokens;

/// `#[elicit]` on a question function, for the entry driver.
struct ElicitAttr;

impl FnAttribute for ElicitAttr {
    const NAME: &'static str = crate::symbols::ELICIT;
    const MISPLACED: &'static str = "`#[elicit(..)]` goes on a question function: \
        `fn approve(order: &Order) -> Form<Approval>`; on a struct or a unit enum, write `#[derive(Elicit)]`";
    type Model = model::Question;

    fn model(args: TokenStream, func: &mut syn::ItemFn, acc: &mut Accumulator) -> model::Question {
        let args = parse::parse(args, acc);
        model::model(args, func, acc)
    }

    fn expand(question: &model::Question, func: &syn::ItemFn) -> TokenStream {
        expand::expand(question, func)
    }

    fn stub(question: &model::Question, func: &syn::ItemFn) -> TokenStream {
        stub::stub(question, func, func.to_token_stream())
    }
}

/// Expands `#[elicit(args)] item`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    entry::expand::<ElicitAttr>(args, item)
}
