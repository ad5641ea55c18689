//! The validated `#[prompt]`: every user error is raised here.

use super::parse::PromptArgs;
use crate::common::args::{crate_path, description_or_docs, resolve_name};
use crate::common::asks::{self, Asks};
use crate::common::signature::{self, Place, Signature};
use crate::diag::err_on;
use crate::symbols::PROMPT;
use darling::error::Accumulator;

/// A validated prompt.
pub struct Prompt {
    /// Where the runtime is (`crate = ..`, checked absolute), so the expansion works with the
    /// runtime renamed or re-exported.
    pub krate: syn::Path,
    /// The name `prompts/get` is called with: `name = ..` or the function's name, checked
    /// against the name rules.
    pub name: String,
    /// `title` in the listing: a display name for people; `None` leaves it out.
    pub title: Option<String>,
    /// `description` in the listing: `description = ..` or the doc comment; never empty, so a
    /// client can tell prompts apart.
    pub description: String,
    /// The function's shape: context, arguments and return type to splice.
    pub sig: Signature,
    /// `asks = [..]`: the questions the prompt may ask.
    pub asks: Asks,
    /// `scopes = [..]`: the OAuth scopes a call needs (all of them), each a checked scope-token,
    /// in the order written; empty leaves `SCOPES` at its default, none.
    pub scopes: Vec<String>,
}

/// Validates the prompt function (its signature's `#[arg]`s are stripped in place).
pub fn model(
    args: PromptArgs,
    attrs: &[syn::Attribute],
    sig: &mut syn::Signature,
    acc: &mut Accumulator,
) -> Prompt {
    let krate = crate_path(args.krate, acc);
    let sig = signature::analyze(PROMPT, sig, Place::Free, acc);
    let asks = asks::model(PROMPT, args.asks, &sig, acc);
    signature::check_duplicate_args(PROMPT, &sig.args, acc);
    let name = resolve_name(PROMPT, args.name.as_ref(), &sig.ident, acc);
    let description = description(args.description.as_ref(), attrs, &sig.ident, acc);
    let scopes = crate::common::scopes::model(PROMPT, args.scopes, acc);
    Prompt {
        krate,
        name,
        title: args.title.map(|t| t.value()),
        description,
        sig,
        asks,
        scopes,
    }
}

/// `description = ..` or the doc comment; an error at the function when both are missing (or
/// the given one is empty), so a client can tell prompts apart.
fn description(
    given: Option<&syn::LitStr>,
    attrs: &[syn::Attribute],
    ident: &syn::Ident,
    acc: &mut Accumulator,
) -> String {
    let description = description_or_docs(given, attrs).unwrap_or_default();
    if description.trim().is_empty() {
        acc.push(err_on(
            ident,
            "`#[prompt]` functions need a description; add a `///` doc comment or `description = \"...\"`",
        ));
    }
    description
}
