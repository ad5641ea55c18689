struct Shop;

#[rondo_mcp::toolbox]
impl Shop {
    /// A scope with a space, on a method.
    #[rondo_mcp::tool(scopes = ["orders write"])]
    async fn order(&self) -> String {
        String::new()
    }

    /// A scope listed twice, on a method.
    #[rondo_mcp::tool(scopes = ["stock", "stock"])]
    async fn stock(&self) -> String {
        String::new()
    }
}

fn main() {
    let _ = rondo_mcp::prelude::Router::new(rondo_mcp::prelude::ServerInfo::new("s", "1")).tools(Shop);
}
