use rondo_mcp::prelude::*;

fn approve(item: &str) -> String {
    format!("Book {item}?")
}

struct Shop;

#[rondo_mcp::toolbox]
impl Shop {
    /// Books an item.
    #[tool(asks = [approve])]
    async fn book(&self, cx: &Cx, item: String) -> String {
        let _ = cx.revision();
        approve(&item)
    }
}

fn main() {
    let _ = Router::new(ServerInfo::new("shop", "1.0.0")).tools(Shop);
}
