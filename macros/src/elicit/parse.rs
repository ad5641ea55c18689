//! `#[elicit(..)]` arguments, as written.

use crate::common::args::{from_metas, key_span, meta_list};
use crate::keys::suggest;
use crate::symbols::{ELICIT, ELICIT_KEYS, FALLBACK};
use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use darling::util::Flag;
use proc_macro2::{Span, TokenStream};

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
    /// The keys written (a misspelt key as the key it is taken for), even with a value that
    /// was refused: a mode or fallback written wrongly is already reported, not missing.
    #[darling(skip)]
    pub written: Vec<&'static str>,
    /// Where the `fallback` key is written, if it is.
    #[darling(skip)]
    pub fallback_key: Option<Span>,
}

/// Parses the attribute's tokens, reporting unknown keys with suggestions.
pub fn parse(args: TokenStream, acc: &mut Accumulator) -> ElicitArgs {
    let Some(metas) = meta_list(args, acc) else {
        return ElicitArgs::default();
    };
    let written = metas.iter().filter_map(key_written).collect();
    let fallback_key = key_span(&metas, FALLBACK);
    let mut args: ElicitArgs = from_metas(ELICIT, ELICIT_KEYS, metas, acc).unwrap_or_default();
    args.written = written;
    args.fallback_key = fallback_key;
    args
}

/// The key an argument gives: its own, or the one a misspelling is taken for (`fallbak`).
fn key_written(meta: &NestedMeta) -> Option<&'static str> {
    let path = match meta {
        NestedMeta::Meta(m) => m.path(),
        NestedMeta::NameValueInvalidExpr(nv) => &nv.path,
        NestedMeta::Lit(_) => return None,
    };
    let word = crate::diag::written(path);
    ELICIT_KEYS
        .iter()
        .find(|(k, _)| *k == word)
        .copied()
        .or_else(|| suggest(&word, ELICIT_KEYS, |_| true))
        .map(|(k, _)| k)
}

impl ElicitArgs {
    /// Whether `key` is written (see [`ElicitArgs::written`]).
    pub fn wrote(&self, key: &str) -> bool {
        self.written.contains(&key)
    }
}
