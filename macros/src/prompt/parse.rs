//! `#[prompt(..)]` arguments, as written.

use crate::common::args::{from_metas, meta_list};
use crate::symbols::{PROMPT, PROMPT_KEYS};
use darling::FromMeta;
use darling::error::Accumulator;
use proc_macro2::TokenStream;

/// The arguments of `#[prompt(..)]`.
#[derive(FromMeta, Default)]
pub struct PromptArgs {
    /// `name = ".."` (default: the function's name).
    pub name: Option<syn::LitStr>,
    /// `title = ".."`.
    pub title: Option<syn::LitStr>,
    /// `description = ".."` (default: the doc comment).
    pub description: Option<syn::LitStr>,
    /// `crate = ::path`: where the runtime is.
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
    /// `asks = [..]`: the questions the function may ask.
    pub asks: Option<crate::keys::list::PathList>,
    /// `scopes = ["..", ..]`: the OAuth scopes a call needs.
    pub scopes: Option<crate::keys::strings::StrList>,
}

/// Parses `#[prompt(..)]`, reporting unknown keys with suggestions.
pub fn parse(args: TokenStream, acc: &mut Accumulator) -> PromptArgs {
    meta_list(args, acc)
        .and_then(|metas| from_metas(PROMPT, PROMPT_KEYS, metas, acc))
        .unwrap_or_default()
}
