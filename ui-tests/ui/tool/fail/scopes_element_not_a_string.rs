/// A bare word, a number and an expression among the scopes.
#[rondo_mcp::tool(scopes = ["books:read", orders, 1, concat!("a", "b")])]
async fn order() -> String {
    String::new()
}

fn main() {
    let _ = rondo_mcp::tools![order];
}
