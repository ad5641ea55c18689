//! The validated `#[tool]`: every user error is raised here.

use super::parse::ToolArgs;
use crate::common::args::{crate_path, description_or_docs, resolve_name};
use crate::common::asks::{self, Asks};
use crate::common::signature::{self, Place, Signature};
use crate::diag::err_on;
use crate::keys::word::Word;
use crate::symbols::{EXPLICIT, OPTIONAL, REQUIRED, TASK, TASK_START, TOOL};
use darling::error::Accumulator;

/// A tool, ready to expand.
pub struct Tool {
    /// Where the runtime is (`crate = ..`, checked absolute), so the expansion works with the
    /// runtime renamed or re-exported.
    pub krate: syn::Path,
    /// The name `tools/call` uses: `name = ..` or the function's name, checked against the
    /// name rules so a client never sees a name the spec rejects.
    pub name: String,
    /// `title` in the listing: a display name for people; `None` leaves it out.
    pub title: Option<String>,
    /// `description` in the listing: `description = ..` or the doc comment. Never empty: the
    /// model chooses tools by it.
    pub description: String,
    /// The `ToolAnnotations` hints; each one left out stays out of the listing.
    pub hints: Hints,
    /// `input_schema = ..`: a schema expression used verbatim instead of the generated one, for
    /// arguments the parameter types cannot describe (then they arrive as one `#[args]` value).
    pub input_schema: Option<syn::Expr>,
    /// The function's shape: context, arguments and return type to splice.
    pub sig: Signature,
    /// `asks = [..]`: the questions the tool may ask.
    pub asks: Asks,
    /// `task = ..` and `task_start = ..`: `None` (no `task`) leaves `ToolHandler::TASK` at
    /// its default, a synchronous call.
    pub task: Option<Task>,
    /// `scopes = [..]`: the OAuth scopes a call needs (all of them), each a checked scope-token,
    /// in the order written; empty leaves `SCOPES` at its default, none.
    pub scopes: Vec<String>,
}

/// A task-capable tool's mode, as `TaskMode` in the runtime.
#[derive(Clone, Copy)]
pub struct Task {
    /// `task = required`: only as a task; `task = optional`: a task when the client declared
    /// the extension.
    pub required: bool,
    /// `task_start = explicit`: the task starts where the tool calls `cx.start_task()`.
    pub explicit_start: bool,
}

/// The four boolean hints of `ToolAnnotations`. `None` when not written: the spec gives each
/// hint a default that clients apply, so the macro does not restate it.
#[derive(Default)]
pub struct Hints {
    /// `readOnlyHint`: the tool does not modify its environment.
    pub read_only: Option<bool>,
    /// `destructiveHint`: an update may be destructive (meaningful when not read-only).
    pub destructive: Option<bool>,
    /// `idempotentHint`: repeating a call with the same arguments has no further effect.
    pub idempotent: Option<bool>,
    /// `openWorldHint`: the tool reaches entities outside a closed domain (e.g. the web).
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
    let asks = asks::model(TOOL, args.asks, &analyzed, acc);
    signature::check_duplicate_args(TOOL, &analyzed.args, acc);
    let name = resolve_name(TOOL, args.name.as_ref(), &analyzed.ident, acc);
    let description = description(args.description.as_ref(), attrs, &analyzed.ident, acc);
    if args.input_schema.is_some() {
        check_no_named_args(&analyzed, acc);
    }
    let task = task(args.task.as_ref(), args.task_start.as_ref(), acc);
    let scopes = crate::common::scopes::model(TOOL, args.scopes, acc);
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
        asks,
        task,
        scopes,
    }
}

/// The task mode; `task_start` without `task` is an error at `task_start`, since only a
/// task-capable tool starts a task. The words are checked already (`keys::word`).
fn task(task: Option<&Word>, start: Option<&Word>, acc: &mut Accumulator) -> Option<Task> {
    let explicit_start = start.is_some_and(|s| s.word == EXPLICIT);
    match (task, start) {
        (Some(task), _) => Some(Task {
            required: task.word == REQUIRED,
            explicit_start,
        }),
        (None, Some(start)) => {
            acc.push(crate::diag::err_at(
                start.key,
                format!(
                    "`{TASK_START}` needs `{TASK} = {OPTIONAL}` or `{TASK} = {REQUIRED}`: only a task-capable tool starts a task; add `{TASK}`, or remove `{TASK_START}`"
                ),
            ));
            None
        }
        (None, None) => None,
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
    match description_or_docs(given, attrs) {
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
