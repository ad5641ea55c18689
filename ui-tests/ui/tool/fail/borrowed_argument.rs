/// Searches.
#[rondo_mcp::tool]
async fn search(query: &str) -> String {
    query.to_owned()
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
