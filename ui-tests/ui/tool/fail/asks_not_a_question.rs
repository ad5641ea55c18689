use rondo_mcp::prelude::*;
use rondo_mcp::tool;

struct Approval;

/// Books an item.
#[tool(asks = [Approval])]
async fn book(cx: &Cx, item: String) -> String {
    let _ = cx.revision();
    item
}

fn main() {
    let _ = rondo_mcp::tools![book];
}
