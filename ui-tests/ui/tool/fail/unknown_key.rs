/// Searches.
#[rondo_mcp::tool(timeout = 5)]
async fn search(query: String) -> String {
    query
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
