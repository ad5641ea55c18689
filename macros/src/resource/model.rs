//! The validated `#[resource]`: every user error past the argument syntax is raised here.

use super::parse::ResourceArgs;
use super::template;
use crate::common::args::{crate_path, description_or_docs, name_or_ident};
use crate::common::asks::{self, Asks};
use crate::common::signature::{self, Place, Signature};
use crate::symbols::RESOURCE;
use darling::error::Accumulator;

/// A validated resource.
pub struct Resource {
    /// Where the runtime is (`crate = ..`, checked absolute), so the expansion works with the
    /// runtime renamed or re-exported.
    pub krate: syn::Path,
    /// The URI, or the URI template when it has `{variables}`; also the set's duplicate key.
    /// Empty only when the URI is missing, an error already reported.
    pub uri: String,
    /// The template's variables, each matched by a parameter; empty for a fixed URI, which
    /// is then listed as a plain resource rather than a template.
    pub vars: Vec<String>,
    /// `name` in the listing (required there): `name = ..` or the function's name.
    pub name: String,
    /// `title` in the listing: a display name for people; `None` leaves it out.
    pub title: Option<String>,
    /// `description` in the listing: `description = ..` or the doc comment; optional for
    /// resources, unlike tools and prompts.
    pub description: Option<String>,
    /// `mimeType` in the listing, when known up front.
    pub mime_type: Option<String>,
    /// The function's shape: context, parameters and return type to splice.
    pub sig: Signature,
    /// `asks = [..]`: the questions the resource may ask.
    pub asks: Asks,
    /// `scopes = [..]`: the OAuth scopes a call needs (all of them), each a checked scope-token,
    /// in the order written; empty leaves `SCOPES` at its default, none.
    pub scopes: Vec<String>,
}

/// Validates the resource. A missing URI (parsing reported it) leaves `uri` empty, and nothing
/// expands from the model then: the driver emits the stub, which needs only the crate path.
pub fn model(
    args: ResourceArgs,
    attrs: &[syn::Attribute],
    sig: &mut syn::Signature,
    acc: &mut Accumulator,
) -> Resource {
    let krate = crate_path(args.krate, acc);
    let vars = args
        .uri
        .as_ref()
        .and_then(|lit| template::template_vars(lit, acc));
    let sig = signature::analyze(RESOURCE, sig, Place::Free, acc);
    let asks = asks::model(RESOURCE, args.asks, &sig, acc);
    let uri = args.uri.as_ref().map(syn::LitStr::value);
    // A malformed template (`vars` is `None`) has no reliable variables; its error is enough.
    if let (Some(uri), Some(vars)) = (&uri, &vars) {
        template::check_params(uri, vars, &sig, acc);
    }
    let scopes = crate::common::scopes::model(RESOURCE, args.scopes, acc);
    Resource {
        krate,
        uri: uri.unwrap_or_default(),
        vars: vars.unwrap_or_default(),
        name: name_or_ident(args.name.as_ref(), &sig.ident).0,
        title: args.title.map(|t| t.value()),
        description: description_or_docs(args.description.as_ref(), attrs),
        mime_type: args.mime_type.map(|m| m.value()),
        sig,
        asks,
        scopes,
    }
}
