//! `#[resource("uri")]`: a function reading an MCP resource, or a resource template when the URI
//! has `{variables}`; the function's parameters (after an optional context) are the variables.

mod expand;
mod template;

use crate::common::signature::{self, Place, Signature};
use crate::common::{crate_path, docs, unraw};
use crate::diag::known_keys;
use crate::symbols::{RESOURCE, RESOURCE_KEYS};
use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::error::Accumulator;
use proc_macro2::{Span, TokenStream};
use quote::quote;

/// The keyed arguments of `#[resource("uri", ..)]`.
#[derive(FromMeta, Default)]
struct ResourceArgs {
    /// `name = ".."` (default: the function's name).
    name: Option<syn::LitStr>,
    /// `title = ".."`.
    title: Option<syn::LitStr>,
    /// `description = ".."` (default: the doc comment).
    description: Option<syn::LitStr>,
    /// `mime_type = ".."`.
    mime_type: Option<syn::LitStr>,
    /// `crate = ::path`: where the runtime is.
    #[darling(rename = "crate")]
    krate: Option<syn::Path>,
}

/// A validated resource.
struct Resource {
    /// Where the runtime is (`crate = ..`, checked absolute), so the expansion works with the
    /// runtime renamed or re-exported.
    krate: syn::Path,
    /// The URI, or the URI template when it has `{variables}`; also the set's duplicate key.
    uri: String,
    /// The template's variables, each matched by a parameter; empty for a fixed URI, which
    /// is then listed as a plain resource rather than a template.
    vars: Vec<String>,
    /// `name` in the listing (required there): `name = ..` or the function's name.
    name: String,
    /// `title` in the listing: a display name for people; `None` leaves it out.
    title: Option<String>,
    /// `description` in the listing: `description = ..` or the doc comment; optional for
    /// resources, unlike tools and prompts.
    description: Option<String>,
    /// `mimeType` in the listing, when known up front.
    mime_type: Option<String>,
    /// The function's shape: context, parameters and return type to splice.
    sig: Signature,
}

/// Expands `#[resource("uri", ..)] fn ..`.
pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let Some(mut func) = crate::common::parse_fn(item.clone()) else {
        let e = darling::Error::custom(
            "`#[resource(\"uri\")]` goes on a function: `async fn name(..) -> ResourceContents`",
        )
        .with_span(&Span::call_site())
        .write_errors();
        return quote!(#item #e);
    };
    let mut acc = darling::Error::accumulator();
    let (krate, resource) = model(args, &func.attrs, &mut func.sig, &mut acc);
    let out = match (acc.finish(), resource) {
        (Ok(()), Some(r)) => expand::expand(&r, &func),
        (result, _) => {
            let errors = result.err().map(darling::Error::write_errors);
            // In an `impl` block (a receiver), a stub struct would be a second error.
            let stub = func
                .sig
                .receiver()
                .is_none()
                .then(|| expand::stub(&krate, &func.sig.ident, &func.vis));
            quote!(#func #stub #errors)
        }
    };
    crate::debug("resource", &out);
    out
}

/// Validates the resource; `None` when the URI is missing (an error is then reported). The
/// crate path comes back either way, for the stub.
fn model(
    args: TokenStream,
    attrs: &[syn::Attribute],
    sig: &mut syn::Signature,
    acc: &mut Accumulator,
) -> (syn::Path, Option<Resource>) {
    let metas = acc
        .handle(NestedMeta::parse_meta_list(args).map_err(darling::Error::from))
        .unwrap_or_default();
    let (uri_lit, rest) = template::split_uri(metas, acc);
    let rest = known_keys(RESOURCE, RESOURCE_KEYS, rest, acc);
    let parsed = acc
        .handle(ResourceArgs::from_list(&rest))
        .unwrap_or_default();
    let krate = crate_path(parsed.krate, acc);
    let vars = uri_lit
        .as_ref()
        .and_then(|lit| template::template_vars(lit, acc));
    let sig = signature::analyze(RESOURCE, sig, Place::Free, acc);
    let Some(uri_lit) = uri_lit else {
        return (krate, None);
    };
    let uri = uri_lit.value();
    // A malformed template (`vars` is `None`) has no reliable variables; its error is enough.
    if let Some(vars) = &vars {
        template::check_params(&uri, vars, &sig, acc);
    }
    let resource = Resource {
        krate: krate.clone(),
        uri,
        vars: vars.unwrap_or_default(),
        name: parsed
            .name
            .map(|n| n.value())
            .unwrap_or_else(|| unraw(&sig.ident)),
        title: parsed.title.map(|t| t.value()),
        description: parsed
            .description
            .map(|d| d.value())
            .or_else(|| docs(attrs)),
        mime_type: parsed.mime_type.map(|m| m.value()),
        sig,
    };
    (krate, Some(resource))
}
