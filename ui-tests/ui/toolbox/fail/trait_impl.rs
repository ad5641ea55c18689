use rondo_mcp::prelude::*;

struct Shop;

trait Stock {
    fn stock(&self) -> u32;
}

#[rondo_mcp::toolbox]
impl Stock for Shop {
    /// Counts the stock.
    #[tool]
    fn stock(&self) -> u32 {
        3
    }
}

fn main() {
    let _ = Router::new(ServerInfo::new("shop", "1.0.0")).tools(Shop);
}
