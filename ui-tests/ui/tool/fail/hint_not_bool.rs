/// Searches.
#[rondo_mcp::tool(read_only_hint = "yes")]
async fn search(query: String) -> String {
    query
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
