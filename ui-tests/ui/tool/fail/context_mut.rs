use rondo_mcp::Cx;

/// Searches.
#[rondo_mcp::tool]
async fn search(cx: &mut Cx, query: String) -> String {
    let _ = cx;
    query
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
