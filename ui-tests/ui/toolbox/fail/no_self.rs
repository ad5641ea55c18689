use rondo_mcp::prelude::*;

struct Shop;

#[rondo_mcp::toolbox]
impl Shop {
    /// Counts the stock.
    #[tool]
    async fn stock() -> u32 {
        3
    }
}

fn main() {
    let _ = Router::new(ServerInfo::new("shop", "1.0.0")).tools(Shop);
}
