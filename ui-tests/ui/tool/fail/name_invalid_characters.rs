/// Searches.
#[rondo_mcp::tool(name = "bad name!")]
async fn search(query: String) -> String {
    query
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
