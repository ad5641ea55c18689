//! Attribute and key names, in one place.

/// `#[tool]`.
pub const TOOL: &str = "tool";
/// `#[prompt]`.
pub const PROMPT: &str = "prompt";
/// `#[resource]`.
pub const RESOURCE: &str = "resource";
/// `#[toolbox]`.
pub const TOOLBOX: &str = "toolbox";
/// `#[arg(..)]` on a parameter.
pub const ARG: &str = "arg";
/// `#[args]` on a parameter.
pub const ARGS: &str = "args";

/// What the value of an attribute key must be.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Value {
    /// A string literal: `name = "search"`.
    Str,
    /// `true` or `false`, or the bare key for `true`: `read_only_hint`.
    Bool,
    /// A path: `crate = ::rondo_mcp`.
    Path,
    /// A list of distinct paths, each element spanned on its own: `asks = [approve, travel::confirm]`.
    PathList,
    /// A list of distinct string literals, each element spanned on its own: `scopes = ["a", "b"]`.
    StrList,
    /// Any expression: `input_schema = json!({..})`.
    Expr,
    /// One of a few bare words, each element a word: `task = optional`.
    Word(&'static [&'static str]),
}

/// One key an attribute accepts, and the value it takes.
pub type Key = (&'static str, Value);

/// The keys `#[tool(..)]` accepts.
pub const TOOL_KEYS: &[Key] = &[
    ("name", Value::Str),
    ("title", Value::Str),
    ("description", Value::Str),
    ("read_only_hint", Value::Bool),
    ("destructive_hint", Value::Bool),
    ("idempotent_hint", Value::Bool),
    ("open_world_hint", Value::Bool),
    ("input_schema", Value::Expr),
    ("asks", Value::PathList),
    (TASK, Value::Word(&[OPTIONAL, REQUIRED])),
    (TASK_START, Value::Word(&[ENTRY, EXPLICIT])),
    (SCOPES, Value::StrList),
    ("crate", Value::Path),
];
/// `scopes = [..]`: the OAuth scopes a call needs on a protected HTTP endpoint (all of them).
pub const SCOPES: &str = "scopes";
/// The scope no item may require: servers should not ask for it (2026-07-28, refresh tokens).
pub const OFFLINE_ACCESS: &str = "offline_access";
/// `task = ..`: whether the tool may run as a task (the tasks extension).
pub const TASK: &str = "task";
/// `task = optional`: a task when the client declared the extension, a synchronous call otherwise.
pub const OPTIONAL: &str = "optional";
/// `task = required`: only as a task; `-32021` when the client did not declare the extension.
pub const REQUIRED: &str = "required";
/// `task_start = ..`: where a task-capable tool becomes a task.
pub const TASK_START: &str = "task_start";
/// `task_start = entry`, the default: before the tool runs.
pub const ENTRY: &str = "entry";
/// `task_start = explicit`: where the tool calls `cx.start_task().await`.
pub const EXPLICIT: &str = "explicit";
/// The keys `#[prompt(..)]` accepts.
pub const PROMPT_KEYS: &[Key] = &[
    ("name", Value::Str),
    ("title", Value::Str),
    ("description", Value::Str),
    ("asks", Value::PathList),
    (SCOPES, Value::StrList),
    ("crate", Value::Path),
];
/// The keys `#[resource(..)]` accepts after the URI.
pub const RESOURCE_KEYS: &[Key] = &[
    ("name", Value::Str),
    ("title", Value::Str),
    ("description", Value::Str),
    ("mime_type", Value::Str),
    ("asks", Value::PathList),
    (SCOPES, Value::StrList),
    ("crate", Value::Path),
];
/// The keys `#[toolbox(..)]` accepts.
pub const TOOLBOX_KEYS: &[Key] = &[("crate", Value::Path)];
/// The attributes on items and their keys: a key one of them takes, written on another, is not
/// a misspelling to correct (`task` on `#[prompt]` is not `asks`).
pub const ITEM_KEYS: &[(&str, &[Key])] = &[
    (TOOL, TOOL_KEYS),
    (PROMPT, PROMPT_KEYS),
    (RESOURCE, RESOURCE_KEYS),
    (TOOLBOX, TOOLBOX_KEYS),
];
/// The keys `#[arg(..)]` accepts.
pub const ARG_KEYS: &[Key] = &[("description", Value::Str), ("rename", Value::Str)];
/// The keys `#[elicit(..)]` accepts on a question function.
pub const ELICIT_KEYS: &[Key] = &[
    (FORM, Value::Bool),
    (URL, Value::Bool),
    (FALLBACK, Value::Path),
    ("crate", Value::Path),
];
/// `#[elicit(form)]`: a question the user answers in a form.
pub const FORM: &str = "form";
/// `#[elicit(url)]`: a question the user answers on a page.
pub const URL: &str = "url";
/// `fallback = ..`: what a question does when the client cannot answer it.
pub const FALLBACK: &str = "fallback";
/// `fallback = refuse`: the request ends with `-32021`, naming what the client did not declare.
pub const REFUSE: &str = "refuse";
/// `fallback = args`: the form's fields become optional arguments of the tools that ask it.
pub const FALLBACK_ARGS: &str = "args";

/// `#[elicit(..)]`: the question attribute, and the helper attribute of `#[derive(Elicit)]`.
pub const ELICIT: &str = "elicit";
/// `#[serde(..)]`: `#[derive(Elicit)]` reads its renames.
pub const SERDE: &str = "serde";
/// The keys `#[elicit(..)]` accepts on a `#[derive(Elicit)]` struct or enum.
pub const ELICIT_CONTAINER_KEYS: &[Key] = &[
    ("rename_all", Value::Str),
    ("legacy_enum_names", Value::Bool),
    ("crate", Value::Path),
];
/// The keys `#[elicit(..)]` accepts on a form field.
pub const ELICIT_FIELD_KEYS: &[Key] = &[
    ("title", Value::Str),
    ("description", Value::Str),
    ("default", Value::Expr),
    ("rename", Value::Str),
    ("min", Value::Expr),
    ("max", Value::Expr),
    ("min_length", Value::Expr),
    ("max_length", Value::Expr),
    ("min_items", Value::Expr),
    ("max_items", Value::Expr),
    ("format", Value::Str),
    ("not_secret", Value::Bool),
    ("not_consent", Value::Bool),
];
/// The keys `#[elicit(..)]` accepts on a variant of a `#[derive(Elicit)]` enum.
pub const ELICIT_VARIANT_KEYS: &[Key] = &[("rename", Value::Str), ("title", Value::Str)];
/// `#[sample(..)]` on a question function.
pub const SAMPLE: &str = "sample";
/// `#[roots(..)]` on a question function.
pub const ROOTS: &str = "roots";
/// The keys `#[sample(..)]` and `#[roots(..)]` accept.
pub const QUESTION_KEYS: &[Key] = &[(FALLBACK, Value::Path), ("crate", Value::Path)];
