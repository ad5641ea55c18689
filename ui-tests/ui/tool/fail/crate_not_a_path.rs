/// Searches.
#[rondo_mcp::tool(crate = "rondo_mcp")]
async fn search(query: String) -> String {
    query
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
