//! The validated `#[toolbox]`: every user error is raised here. The container owns the `#[tool]`
//! helper attributes of its methods and strips them, so it sees every tool at once (duplicate names
//! are caught here, CONTRIBUTING.md, "A macro is parse, then model, then expand").

use super::parse::ToolboxArgs;
use crate::common::args::crate_path;
use crate::common::signature::Place;
use crate::diag::{err_on, written};
use crate::symbols::TOOL;
use crate::tool::model::{Tool, model as tool_model};
use crate::tool::parse::parse_list;
use darling::error::Accumulator;
use proc_macro2::TokenStream;

/// A validated toolbox: the `impl` block's tools, ready to expand next to the block.
pub struct Toolbox {
    /// Where the runtime is (`crate = ..`, checked absolute); each method's `#[tool]` inherits it
    /// unless it names its own.
    pub krate: syn::Path,
    /// The `#[tool]` methods, in order, their names distinct.
    pub tools: Vec<Tool>,
}

/// Validates the toolbox, stripping the `#[tool]` attributes of the block's methods in place.
pub fn model(args: ToolboxArgs, block: &mut syn::ItemImpl, acc: &mut Accumulator) -> Toolbox {
    let krate = crate_path(args.krate, acc);
    check_inherent(block, acc);
    let tools = collect(block, &krate, acc);
    Toolbox { krate, tools }
}

/// A trait impl cannot also implement `ToolBox` for its type's methods; an error at the trait.
fn check_inherent(block: &syn::ItemImpl, acc: &mut Accumulator) {
    if let Some((path, _)) = &block.trait_ {
        let self_ty = &block.self_ty;
        let shown = written(self_ty);
        acc.push(err_on(
            path,
            format!(
                "`#[toolbox]` goes on an inherent `impl Type` block, not a trait impl; move the tools into `impl {shown} {{ .. }}`"
            ),
        ));
    }
}

/// Models every `#[tool]` method, stripping the attributes; reports duplicate names.
fn collect(block: &mut syn::ItemImpl, krate: &syn::Path, acc: &mut Accumulator) -> Vec<Tool> {
    let mut tools: Vec<Tool> = Vec::new();
    for item in &mut block.items {
        let syn::ImplItem::Fn(method) = item else {
            continue;
        };
        let Some(tool) = tool_method(method, krate, acc) else {
            continue;
        };
        if let Some(first) = tools.iter().find(|t| t.name == tool.name) {
            acc.push(err_on(
                &method.sig.ident,
                format!(
                    "duplicate tool name `{}`: `fn {}` in this impl already uses it; choose another with `#[tool(name = \"...\")]`",
                    tool.name, first.sig.ident
                ),
            ));
            continue;
        }
        tools.push(tool);
    }
    if tools.is_empty() {
        acc.push(err_on(
            &block.self_ty,
            "`#[toolbox]` found no `#[tool]` methods in this impl block; mark the tools with `#[tool]`",
        ));
    }
    tools
}

/// Removes the `#[tool(..)]` of a method and models the tool; `None` for a method without one,
/// or when the attribute itself does not parse (the error is reported).
fn tool_method(
    method: &mut syn::ImplItemFn,
    krate: &syn::Path,
    acc: &mut Accumulator,
) -> Option<Tool> {
    let pos = method.attrs.iter().position(is_tool_attr)?;
    let attr = method.attrs.remove(pos);
    let tokens = match &attr.meta {
        syn::Meta::Path(_) => TokenStream::new(),
        syn::Meta::List(l) => l.tokens.clone(),
        syn::Meta::NameValue(nv) => {
            acc.push(err_on(
                &nv.eq_token,
                "`#[tool]` takes its arguments in parentheses; write `#[tool]` or `#[tool(name = \"...\")]`",
            ));
            return None;
        }
    };
    let mut args = parse_list(&tokens, acc)?;
    if args.krate.is_none() {
        args.krate = Some(krate.clone());
    }
    Some(tool_model(
        args,
        &method.attrs,
        &mut method.sig,
        Place::Method,
        acc,
    ))
}

/// Whether `a` is `#[tool]` under any path (`#[rondo_mcp::tool]` too): the container owns it.
fn is_tool_attr(a: &syn::Attribute) -> bool {
    a.path().segments.last().is_some_and(|s| s.ident == TOOL)
}
