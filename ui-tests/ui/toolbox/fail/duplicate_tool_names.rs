use rondo_mcp::prelude::*;

struct Shop;

#[rondo_mcp::toolbox]
impl Shop {
    /// Counts the stock.
    #[tool]
    async fn stock(&self) -> u32 {
        3
    }

    /// Counts the stock, again.
    #[tool(name = "stock")]
    async fn count(&self) -> u32 {
        3
    }
}

fn main() {
    let _ = Router::new(ServerInfo::new("shop", "1.0.0")).tools(Shop);
}
