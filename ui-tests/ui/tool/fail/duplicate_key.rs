/// Searches.
#[rondo_mcp::tool(name = "search", name = "find")]
async fn search(query: String) -> String {
    query
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
