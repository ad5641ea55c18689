//! Procedural macros of [`rondo-mcp`](https://docs.rs/rondo-mcp). Depend on `rondo-mcp`, which
//! re-exports them and documents each one; generated code reaches the runtime only through
//! `rondo_mcp::__private`.

mod common;
mod diag;
mod list;
mod paths;
mod prompt;
mod resource;
mod symbols;
mod tool;
mod toolbox;

use proc_macro::TokenStream;

/// Turns an `async fn` into an MCP tool. See `rondo_mcp::tool`.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand(args.into(), item.into()).into()
}

/// Serves the `#[tool]` methods of an `impl` block. See `rondo_mcp::toolbox`.
#[proc_macro_attribute]
pub fn toolbox(args: TokenStream, item: TokenStream) -> TokenStream {
    toolbox::expand(args.into(), item.into()).into()
}

/// Turns a function into an MCP prompt. See `rondo_mcp::prompt`.
#[proc_macro_attribute]
pub fn prompt(args: TokenStream, item: TokenStream) -> TokenStream {
    prompt::expand(args.into(), item.into()).into()
}

/// Turns a function into an MCP resource or resource template. See `rondo_mcp::resource`.
#[proc_macro_attribute]
pub fn resource(args: TokenStream, item: TokenStream) -> TokenStream {
    resource::expand(args.into(), item.into()).into()
}

/// Collects `#[tool]` functions into a `ToolSet`. See `rondo_mcp::tools`.
#[proc_macro]
pub fn tools(input: TokenStream) -> TokenStream {
    list::expand(list::Kind::Tools, input.into()).into()
}

/// Collects `#[prompt]` functions into a `PromptSet`. See `rondo_mcp::prompts`.
#[proc_macro]
pub fn prompts(input: TokenStream) -> TokenStream {
    list::expand(list::Kind::Prompts, input.into()).into()
}

/// Collects `#[resource]` functions into a `ResourceSet`. See `rondo_mcp::resources`.
#[proc_macro]
pub fn resources(input: TokenStream) -> TokenStream {
    list::expand(list::Kind::Resources, input.into()).into()
}

/// Prints an expansion to stderr when `RONDO_MACROS_DEBUG` is set.
fn debug(what: &str, tokens: &proc_macro2::TokenStream) {
    if std::env::var_os("RONDO_MACROS_DEBUG").is_some() {
        eprintln!("// rondo-mcp-macros: {what}\n{tokens}");
    }
}
