#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Query {
    text: String,
}

/// Searches.
#[rondo_mcp::tool]
async fn search(#[args(flatten)] query: Query) -> String {
    query.text
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
