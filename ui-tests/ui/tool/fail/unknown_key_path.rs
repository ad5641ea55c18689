/// Searches.
#[rondo_mcp::tool(hints::read_only = true)]
async fn search(query: String) -> String {
    query
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
