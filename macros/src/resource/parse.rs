//! `#[resource("uri", ..)]` arguments, as written: the URI literal, then keys.

use crate::common::args::{from_metas, meta_list};
use crate::diag::{err_at, err_on};
use crate::symbols::{RESOURCE, RESOURCE_KEYS};
use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use proc_macro2::{Span, TokenStream};
use syn::spanned::Spanned;

/// The arguments of `#[resource("uri", ..)]`.
#[derive(FromMeta, Default)]
pub struct ResourceArgs {
    /// The URI literal; `None` when it is missing (an error is then reported).
    #[darling(skip)]
    pub uri: Option<syn::LitStr>,
    /// `name = ".."` (default: the function's name).
    pub name: Option<syn::LitStr>,
    /// `title = ".."`.
    pub title: Option<syn::LitStr>,
    /// `description = ".."` (default: the doc comment).
    pub description: Option<syn::LitStr>,
    /// `mime_type = ".."`.
    pub mime_type: Option<syn::LitStr>,
    /// `crate = ::path`: where the runtime is.
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
    /// `asks = [..]`: the questions the function may ask.
    pub asks: Option<crate::keys::list::PathList>,
    /// `scopes = ["..", ..]`: the OAuth scopes a call needs.
    pub scopes: Option<crate::keys::strings::StrList>,
}

/// Parses `#[resource(..)]`: the URI, then the keys, reporting unknown ones with suggestions.
/// Tokens that do not parse still report the missing URI.
pub fn parse(args: TokenStream, acc: &mut Accumulator) -> ResourceArgs {
    let metas = meta_list(args, acc).unwrap_or_default();
    let (uri, rest) = split_uri(metas, acc);
    let keyed: Option<ResourceArgs> = from_metas(RESOURCE, RESOURCE_KEYS, rest, acc);
    ResourceArgs {
        uri,
        ..keyed.unwrap_or_default()
    }
}

/// Takes the URI literal off the front of the arguments. A URI written later is an error at it
/// and is still used; no URI at all is an error at the first argument (or at the attribute, when
/// it has none).
fn split_uri(
    mut metas: Vec<NestedMeta>,
    acc: &mut Accumulator,
) -> (Option<syn::LitStr>, Vec<NestedMeta>) {
    let position = metas
        .iter()
        .position(|m| matches!(m, NestedMeta::Lit(syn::Lit::Str(_))));
    let Some(position) = position else {
        let span = metas.first().map_or_else(Span::call_site, |m| m.span());
        acc.push(err_at(
            span,
            "`#[resource]` needs the URI first: `#[resource(\"scheme://path/{id}\")]`",
        ));
        return (None, metas);
    };
    let NestedMeta::Lit(syn::Lit::Str(lit)) = metas.remove(position) else {
        return (None, metas);
    };
    if position > 0 {
        acc.push(err_on(
            &lit,
            format!(
                "the URI goes first in `#[resource]`: `#[resource({}, ..)]`",
                lit.token()
            ),
        ));
    }
    (Some(lit), metas)
}
