//! `#[sample(fallback = ..)]` on a question function: a completion from the client's model.
//! The model, parse and expansion are the question macros' (`elicit/`), in [`Mode::Sample`].

use crate::common::args::{from_metas, key_span, meta_list};
use crate::common::entry::{self, FnAttribute};
use crate::elicit::expand as question;
use crate::elicit::model::{FallbackArg, Mode, Question};
use crate::keys::suggest;
use crate::symbols::{FALLBACK, QUESTION_KEYS, SAMPLE};
use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;

/// The keys of `#[sample(..)]` and `#[roots(..)]`, as written.
#[derive(FromMeta, Default)]
pub struct QuestionArgs {
    /// `fallback = ..`: a function, or `refuse`.
    pub fallback: Option<syn::Path>,
    /// `crate = ::path`: where the runtime is.
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
    /// Whether `fallback` is written (misspelt or with a refused value too): then it is already
    /// reported, not missing.
    #[darling(skip)]
    pub fallback_written: bool,
    /// Where the `fallback` key is written, if it is.
    #[darling(skip)]
    pub fallback_key: Option<Span>,
}

impl QuestionArgs {
    /// The `fallback` key as written, and the `crate` key.
    pub fn into_parts(self) -> (FallbackArg, Option<syn::Path>) {
        let fallback = FallbackArg {
            path: self.fallback,
            key: self.fallback_key,
            written: self.fallback_written,
        };
        (fallback, self.krate)
    }
}

/// Parses the keys of `#[attr(..)]` for a `#[sample]` or `#[roots]` question.
pub fn parse(attr: &str, args: TokenStream, acc: &mut Accumulator) -> QuestionArgs {
    let Some(metas) = meta_list(args, acc) else {
        return QuestionArgs::default();
    };
    let fallback_written = metas.iter().any(writes_fallback);
    let fallback_key = key_span(&metas, FALLBACK);
    let mut args: QuestionArgs = from_metas(attr, QUESTION_KEYS, metas, acc).unwrap_or_default();
    args.fallback_written = fallback_written;
    args.fallback_key = fallback_key;
    args
}

/// Whether an argument gives the `fallback` key (or a misspelling taken for it: `fallbak`).
fn writes_fallback(meta: &NestedMeta) -> bool {
    let path = match meta {
        NestedMeta::Meta(m) => m.path(),
        NestedMeta::NameValueInvalidExpr(nv) => &nv.path,
        NestedMeta::Lit(_) => return false,
    };
    let word = crate::diag::written(path);
    word == FALLBACK || suggest(&word, QUESTION_KEYS, |_| true).is_some_and(|(k, _)| k == FALLBACK)
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
        let (fallback, krate) = args.into_parts();
        crate::elicit::model::question(Mode::Sample, fallback, krate, func, acc)
    }

    fn expand(q: &Question, func: &syn::ItemFn) -> TokenStream {
        question::expand(q, func)
    }

    fn stub(q: &Question, func: &syn::ItemFn) -> TokenStream {
        crate::elicit::stub::stub(q, func, func.to_token_stream())
    }
}

/// Expands `#[sample(args)] item`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    entry::expand::<SampleAttr>(args, item)
}
