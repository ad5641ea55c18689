//! `#[elicit(..)]` arguments, as written.

use crate::common::args::{from_metas, meta_list};
use crate::symbols::{ELICIT, ELICIT_KEYS};
use darling::FromMeta;
use darling::error::Accumulator;
use darling::util::Flag;
use proc_macro2::TokenStream;

/// The arguments of `#[elicit(..)]` on a question function.
#[derive(FromMeta, Default)]
pub struct ElicitArgs {
    /// `form`: the question is a form the user fills in (`Form<T>`).
    pub form: Flag,
    /// `url`: the question is a page the user opens (`Url`).
    pub url: Flag,
    /// `fallback = ..`: a function, `args` or `refuse`.
    pub fallback: Option<syn::Path>,
    /// `crate = ::path`: where the runtime is.
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
}

/// Parses the attribute's tokens, reporting unknown keys with suggestions.
pub fn parse(args: TokenStream, acc: &mut Accumulator) -> ElicitArgs {
    meta_list(args, acc)
        .and_then(|metas| from_metas(ELICIT, ELICIT_KEYS, metas, acc))
        .unwrap_or_default()
}
