/// A single string where a list goes.
#[rondo_mcp::tool(scopes = "orders:write")]
async fn single() -> String {
    String::new()
}

/// A bare word where a list goes.
#[rondo_mcp::tool(scopes = orders)]
async fn word() -> String {
    String::new()
}

/// The list form of a meta.
#[rondo_mcp::tool(scopes("orders:write"))]
async fn call_form() -> String {
    String::new()
}

fn main() {
    let _ = rondo_mcp::tools![single, word, call_form];
}
