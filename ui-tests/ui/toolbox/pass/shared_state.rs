//! A toolbox with every kind of method: context alias, sync, flattened and raw-named
//! arguments, explicit lifetimes, helper methods and constants left alone.

use rondo_mcp::prelude::*;

type Ctx = rondo_mcp::Cx;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Order {
    /// How many.
    count: u32,
}

struct Shop {
    stock: u32,
}

#[rondo_mcp::toolbox]
impl Shop {
    const LIMIT: u32 = 10;

    /// How many items are in stock.
    #[tool(read_only_hint)]
    fn stock(&self) -> u32 {
        self.stock
    }

    /// Orders items.
    #[tool(name = "order", destructive_hint = false)]
    async fn place<'a>(&'a self, cx: &Ctx, #[args] order: Order) -> Result<String, String> {
        let _ = cx.revision();
        if order.count > self.stock.min(Self::LIMIT) {
            Err(format!("only {} left", self.stock))
        } else {
            Ok(format!("ordered {}", order.count))
        }
    }

    /// Looks an item up by kind.
    #[rondo_mcp::tool]
    async fn lookup(&self, r#type: String) -> String {
        r#type
    }

    fn helper(&self) -> u32 {
        self.stock
    }
}

fn main() {
    let shop = Shop { stock: 3 };
    assert_eq!(shop.helper(), 3);
    let _ = Router::new(ServerInfo::new("shop", "1.0.0")).tools(shop);
}
