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

/// The keys `#[tool(..)]` accepts.
pub const TOOL_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "read_only_hint",
    "destructive_hint",
    "idempotent_hint",
    "open_world_hint",
    "input_schema",
    "crate",
];
/// The keys `#[prompt(..)]` accepts.
pub const PROMPT_KEYS: &[&str] = &["name", "title", "description", "crate"];
/// The keys `#[resource(..)]` accepts after the URI.
pub const RESOURCE_KEYS: &[&str] = &["name", "title", "description", "mime_type", "crate"];
/// The keys `#[toolbox(..)]` accepts.
pub const TOOLBOX_KEYS: &[&str] = &["crate"];
/// The keys `#[arg(..)]` accepts.
pub const ARG_KEYS: &[&str] = &["description", "rename"];
