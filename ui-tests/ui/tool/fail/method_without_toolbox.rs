struct Shop;

impl Shop {
    /// Counts the stock.
    #[rondo_mcp::tool]
    async fn stock(&self) -> u32 {
        3
    }
}

fn main() {}
