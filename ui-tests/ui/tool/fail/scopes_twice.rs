/// The same scope twice in the list.
#[rondo_mcp::tool(scopes = ["orders:write", "books:read", "orders:write"])]
async fn order() -> String {
    String::new()
}

fn main() {
    let _ = rondo_mcp::tools![order];
}
