//! Preorders, a tool that comes and goes while the server runs: `preorders` opens them (the
//! shop then offers `preorder_book`) or closes them (it is gone again). Each change goes through
//! the router's [`Registry`], which tells every client that listens that the tool list changed
//! (`notifications/tools/list_changed`), and a call of `preorder_book` once closed is the
//! unknown-tool error.

use rondo_mcp::{Registry, RegistryError, tool, toolbox, tools};

/// Preorders the next printing of a book (offered only while preorders are open).
#[tool(destructive_hint = false)]
async fn preorder_book(#[arg(description = "The ISBN of the book")] isbn: String) -> String {
    format!("Preordered the next printing of {isbn}.")
}

/// The tool that opens and closes preorders.
pub struct Preorders {
    /// The bookshop router's registry.
    pub registry: Registry,
}

#[toolbox]
impl Preorders {
    /// Opens preorders (`open: true`: the shop offers `preorder_book`) or closes them.
    #[tool(idempotent_hint = true)]
    async fn preorders(
        &self,
        #[arg(description = "Whether preorders are open")] open: bool,
    ) -> Result<String, RegistryError> {
        let offered = self
            .registry
            .tool_names()
            .iter()
            .any(|n| n == "preorder_book");
        match (open, offered) {
            (true, false) => self.registry.add_tools(tools![preorder_book])?,
            (false, true) => self.registry.remove_tool("preorder_book")?,
            _ => {}
        }
        Ok(if open {
            "Preorders are open: preorder_book is offered.".into()
        } else {
            "Preorders are closed.".into()
        })
    }
}
