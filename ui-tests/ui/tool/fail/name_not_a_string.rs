/// Searches.
#[rondo_mcp::tool(name = 5)]
async fn search(query: String) -> String {
    query
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
