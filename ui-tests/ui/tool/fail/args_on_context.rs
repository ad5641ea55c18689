use rondo_mcp::Cx;

/// Searches.
#[rondo_mcp::tool]
async fn search(#[args] cx: &Cx) -> String {
    let _ = cx;
    String::new()
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
