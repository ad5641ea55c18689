//! `#[sample(fallback = ..)]` on a question function: a completion from the client's model.
//! The model, parse and expansion are the question macros' (`elicit/`), in [`Mode::Sample`].

use crate::common::args::{from_metas, meta_list};
use crate::common::entry::{self, FnAttribute};
use crate::elicit::expand as question;
use crate::elicit::model::{Mode, Question};
use crate::symbols::{QUESTION_KEYS, SAMPLE};
use darling::FromMeta;
use darling::error::Accumulator;
use proc_macro2::TokenStream;

/// The keys of `#[sample(..)]` and `#[roots(..)]`, as written.
#[derive(FromMeta, Default)]
pub struct QuestionArgs {
    /// `fallback = ..`: a function, or `refuse`.
    pub fallback: Option<syn::Path>,
    /// `crate = ::path`: where the runtime is.
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
}

/// Parses the keys of `#[attr(..)]` for a `#[sample]` or `#[roots]` question.
pub fn parse(attr: &str, args: TokenStream, acc: &mut Accumulator) -> QuestionArgs {
    meta_list(args, acc)
        .and_then(|metas| from_metas(attr, QUESTION_KEYS, metas, acc))
        .unwrap_or_default()
}

/// `#[sample]`, for the entry driver.
struct SampleAttr;

impl FnAttribute for SampleAttr {
    const NAME: &'static str = SAMPLE;
    const MISPLACED: &'static str = "`#[sample(..)]` goes on a question function: \
        `fn pick(flights: &[Flight]) -> Sample<Picks>`";
    type Model = Question;

    fn model(args: TokenStream, func: &mut syn::ItemFn, acc: &mut Accumulator) -> Question {
        let args = parse(SAMPLE, args, acc);
        crate::elicit::model::question(Mode::Sample, args.fallback, args.krate, func, acc)
    }

    fn expand(q: &Question, func: &syn::ItemFn) -> TokenStream {
        question::expand(q, func)
    }

    fn stub(_: &Question, func: &syn::ItemFn) -> TokenStream {
        question::stub(func)
    }
}

/// Expands `#[sample(args)] item`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    entry::expand::<SampleAttr>(args, item)
}
