/// Requires nothing, written as an empty list.
#[rondo_mcp::tool(scopes = [])]
async fn order() -> String {
    String::new()
}

fn main() {
    let _ = rondo_mcp::tools![order];
}
