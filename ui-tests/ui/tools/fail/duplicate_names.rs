/// Searches.
#[rondo_mcp::tool(name = "search")]
async fn search(query: String) -> String {
    query
}

/// Also searches.
#[rondo_mcp::tool(name = "search")]
async fn find(query: String) -> String {
    query
}

fn main() {
    let _ = rondo_mcp::tools![search, find];
}
