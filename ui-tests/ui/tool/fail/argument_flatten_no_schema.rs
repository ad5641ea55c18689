#[derive(serde::Deserialize)]
struct Query {
    text: String,
}

/// Searches.
#[rondo_mcp::tool]
async fn search(#[args] query: Query) -> String {
    query.text
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
