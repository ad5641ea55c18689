//! A tool in a module named `functions`, like the module that holds the list's fallback types:
//! the fallback module is private, so the entry resolves to the user's module.

mod functions {
    /// Searches.
    #[rondo_mcp::tool]
    pub async fn search(query: String) -> String {
        query
    }
}

fn main() {
    let _ = rondo_mcp::tools![functions::search];
}
