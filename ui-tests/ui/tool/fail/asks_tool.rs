use rondo_mcp::prelude::*;
use rondo_mcp::tool;

/// Searches.
#[tool]
async fn search(query: String) -> String {
    query
}

/// Books an item.
#[tool(asks = [search])]
async fn book(cx: &Cx, item: String) -> String {
    let _ = cx.revision();
    item
}

fn main() {
    let _ = rondo_mcp::tools![book, search];
}
