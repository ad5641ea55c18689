#[rondo_mcp::tool(destructive = true)]
/// Deletes everything.
async fn purge() -> String {
    String::new()
}

fn main() {
    let _ = rondo_mcp::tools![purge];
}
