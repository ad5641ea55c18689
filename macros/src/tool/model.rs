//! The validated `#[tool]`: every user error is raised here.

use super::parse::ToolArgs;
use crate::common::signature::{self, Place, Signature};
use crate::common::{crate_path, docs, resolve_name};
use crate::diag::err_on;
use crate::symbols::TOOL;
use darling::error::Accumulator;

/// A tool, ready to expand.
pub struct Tool {
    /// Where the runtime is.
    pub krate: syn::Path,
    /// The tool's name on the wire.
    pub name: String,
    /// Display name.
    pub title: Option<String>,
    /// Description for the model.
    pub description: String,
    /// `ToolAnnotations` hints.
    pub hints: Hints,
    /// A verbatim input schema expression, replacing the generated one.
    pub input_schema: Option<syn::Expr>,
    /// The function's shape.
    pub sig: Signature,
}

/// The four boolean hints of `ToolAnnotations`.
#[derive(Default)]
pub struct Hints {
    /// `readOnlyHint`.
    pub read_only: Option<bool>,
    /// `destructiveHint`.
    pub destructive: Option<bool>,
    /// `idempotentHint`.
    pub idempotent: Option<bool>,
    /// `openWorldHint`.
    pub open_world: Option<bool>,
}

/// Validates a tool function (its signature's `#[arg]`s are stripped in place).
pub fn model(
    args: ToolArgs,
    attrs: &[syn::Attribute],
    sig: &mut syn::Signature,
    place: Place,
    acc: &mut Accumulator,
) -> Tool {
    let krate = crate_path(args.krate, acc);
    let analyzed = signature::analyze(TOOL, sig, place, acc);
    signature::check_duplicate_args(TOOL, &analyzed.args, acc);
    let name = resolve_name(TOOL, args.name.as_ref(), &analyzed.ident, acc);
    let description = description(args.description.as_ref(), attrs, &analyzed.ident, acc);
    if args.input_schema.is_some() {
        check_no_named_args(&analyzed, acc);
    }
    Tool {
        krate,
        name,
        title: args.title.map(|t| t.value()),
        description,
        hints: Hints {
            read_only: args.read_only_hint,
            destructive: args.destructive_hint,
            idempotent: args.idempotent_hint,
            open_world: args.open_world_hint,
        },
        input_schema: args.input_schema,
        sig: analyzed,
    }
}

/// `description = ..` or the doc comment; an error at the function when both are missing or
/// blank, because the model chooses tools by their descriptions.
fn description(
    given: Option<&syn::LitStr>,
    attrs: &[syn::Attribute],
    ident: &syn::Ident,
    acc: &mut Accumulator,
) -> String {
    match given.map(|d| d.value()).or_else(|| docs(attrs)) {
        Some(d) if !d.trim().is_empty() => d,
        _ => {
            acc.push(err_on(
                ident,
                "`#[tool]` functions need a description for the model; add a `///` doc comment or `description = \"...\"`",
            ));
            String::new()
        }
    }
}

/// With `input_schema = ..` nothing generates a schema from the parameters, so a named argument
/// would go unlisted; an error at the first one.
fn check_no_named_args(sig: &Signature, acc: &mut Accumulator) {
    if let Some(a) = sig.args.iter().find(|a| !a.flatten) {
        acc.push(crate::diag::err_at(
            a.span,
            "with `input_schema = ..` the arguments are not generated from parameters; take them as one `#[args]` value",
        ));
    }
}
