use ::rondo_mcp as mcp;

/// Searches.
#[mcp::tool(crate = self::mcp)]
async fn search(query: String) -> String {
    query
}

fn main() {
    let _ = mcp::tools![search];
}
