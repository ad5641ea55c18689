#[derive(schemars::JsonSchema)]
struct Query {
    text: String,
}

/// Searches.
#[rondo_mcp::tool]
async fn search(#[args] query: Query, limit: u32) -> String {
    query.text.repeat(limit as usize)
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
