//! `crate = path`, absolute or through `crate::`, on every macro.

mod reexport {
    pub use ::rondo_mcp as mcp;
}

use rondo_mcp::prelude::*;

/// Echoes.
#[rondo_mcp::tool(crate = ::rondo_mcp)]
async fn echo(text: String) -> String {
    text
}

/// Echoes, through a re-export.
#[rondo_mcp::tool(crate = crate::reexport::mcp)]
async fn echo_again(text: String) -> String {
    text
}

struct Shop;

#[rondo_mcp::toolbox(crate = crate::reexport::mcp)]
impl Shop {
    /// Counts the stock.
    #[tool]
    async fn stock(&self, #[arg(description = "Which item")] item: String) -> String {
        item
    }
}

/// Greets.
#[rondo_mcp::prompt(crate = ::rondo_mcp)]
fn greeting(name: String) -> String {
    format!("hello {name}")
}

/// A note.
#[rondo_mcp::resource("note://{id}", crate = crate::reexport::mcp)]
fn note(id: String) -> ResourceContents {
    ResourceContents::text(format!("note://{id}"), "text/plain", id)
}

fn main() {
    let _ = Router::new(ServerInfo::new("crate-path", "1.0.0"))
        .tools(rondo_mcp::tools![crate = ::rondo_mcp; echo, echo_again])
        .tools(Shop)
        .prompts(rondo_mcp::prompts![crate = crate::reexport::mcp; greeting])
        .resources(rondo_mcp::resources![note]);
}
