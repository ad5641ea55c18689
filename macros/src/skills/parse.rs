//! `skills!([crate = ::path;] "folder")`, as written.

use crate::diag::err_at;
use darling::error::Accumulator;
use proc_macro2::TokenStream;
use syn::parse::{Parse, ParseStream};
use syn::{LitStr, Path, Token};

/// The arguments of `skills!`.
pub struct SkillsArgs {
    /// `crate = ::path;`: where the runtime is.
    pub krate: Option<Path>,
    /// The folder, relative to the crate's folder (`CARGO_MANIFEST_DIR`) unless absolute.
    pub folder: LitStr,
}

impl Parse for SkillsArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let krate = crate::common::args::crate_prefix(input)?;
        let folder = input.parse()?;
        input.parse::<Option<Token![,]>>()?;
        Ok(SkillsArgs { krate, folder })
    }
}

/// Parses the arguments; a syntax error says what the macro takes.
pub fn parse(input: TokenStream, acc: &mut Accumulator) -> Option<SkillsArgs> {
    acc.handle(syn::parse2(input).map_err(|e| {
        let msg = format!(
            "`skills!(..)` takes a folder of skills as a string literal, relative to the crate's folder: `skills!(\"skills\")`; {e}"
        );
        err_at(e.span(), msg)
    }))
}
