use rondo_mcp::prelude::*;
use rondo_mcp::tool;

fn approve(item: &str) -> String {
    format!("Book {item}?")
}

/// Books an item.
#[tool(asks = [approve])]
async fn book(cx: &Cx, item: String) -> String {
    let _ = cx.revision();
    approve(&item)
}

fn main() {
    let _ = rondo_mcp::tools![book];
}
