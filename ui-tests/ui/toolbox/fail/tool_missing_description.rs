use rondo_mcp::prelude::*;

struct Shop;

#[rondo_mcp::toolbox]
impl Shop {
    #[tool]
    async fn stock(&self) -> u32 {
        3
    }

    /// Orders.
    #[tool]
    async fn order(&self, count: u32) -> u32 {
        count
    }
}

fn main() {
    let _ = Router::new(ServerInfo::new("shop", "1.0.0")).tools(Shop);
}
