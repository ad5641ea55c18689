/// Searches.
#[rondo_mcp::tool]
async fn search(query: String) -> String {
    let x = ;
    query
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
