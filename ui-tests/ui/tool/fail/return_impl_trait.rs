/// Searches.
#[rondo_mcp::tool]
async fn search(query: String) -> impl std::fmt::Display {
    query
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
