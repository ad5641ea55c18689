use rondo_mcp::prelude::*;

struct Shop;

#[rondo_mcp::toolbox]
impl Shop {
    fn stock(&self) -> u32 {
        3
    }
}

fn main() {
    let _ = Router::new(ServerInfo::new("shop", "1.0.0")).tools(Shop);
}
