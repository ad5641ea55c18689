/// Searches.
#[rondo_mcp::tool(input_schema = serde_json::json!({"type": "object"}))]
async fn search(query: String) -> String {
    query
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
