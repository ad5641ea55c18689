/// Each scope breaks one rule of RFC 6749's scope-token.
#[rondo_mcp::tool(scopes = [
    "",
    "orders:write books:read",
    "say\"hi\"",
    "a\\b",
    "café",
    "tab\there",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "offline_access",
    "fine",
])]
async fn order() -> String {
    String::new()
}

fn main() {
    let _ = rondo_mcp::tools![order];
}
