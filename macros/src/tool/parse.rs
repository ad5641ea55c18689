//! `#[tool(..)]` arguments, as written.

use crate::common::args::{from_metas, meta_list};
use crate::keys::word::Word;
use crate::symbols::{TOOL, TOOL_KEYS};
use darling::FromMeta;
use darling::error::Accumulator;
use proc_macro2::TokenStream;

/// The arguments of `#[tool(..)]`.
#[derive(FromMeta, Default)]
pub struct ToolArgs {
    /// `name = "..."`: the tool's name (default: the function's name).
    pub name: Option<syn::LitStr>,
    /// `title = "..."`: display name.
    pub title: Option<syn::LitStr>,
    /// `description = "..."` (default: the doc comment).
    pub description: Option<syn::LitStr>,
    /// `read_only_hint`.
    pub read_only_hint: Option<bool>,
    /// `destructive_hint`.
    pub destructive_hint: Option<bool>,
    /// `idempotent_hint`.
    pub idempotent_hint: Option<bool>,
    /// `open_world_hint`.
    pub open_world_hint: Option<bool>,
    /// `input_schema = expr`: a verbatim input schema (a `serde_json::Value` object).
    pub input_schema: Option<syn::Expr>,
    /// `crate = ::path`: where the runtime is.
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
    /// `asks = [..]`: the questions the function may ask.
    pub asks: Option<crate::keys::list::PathList>,
    /// `task = optional` or `task = required`: whether the tool may run as a task.
    pub task: Option<Word>,
    /// `task_start = entry` (the default) or `task_start = explicit`: where the task starts.
    pub task_start: Option<Word>,
    /// `scopes = ["..", ..]`: the OAuth scopes a call needs.
    pub scopes: Option<crate::keys::strings::StrList>,
}

/// Parses the attribute's tokens, reporting unknown keys with suggestions.
pub fn parse(args: TokenStream, acc: &mut Accumulator) -> ToolArgs {
    parse_list(&args, acc).unwrap_or_default()
}

/// Parses an already-split argument list (the `#[toolbox]` container reads each method's attribute).
pub fn parse_list(args: &TokenStream, acc: &mut Accumulator) -> Option<ToolArgs> {
    let metas = meta_list(args.clone(), acc)?;
    from_metas(TOOL, TOOL_KEYS, metas, acc)
}
