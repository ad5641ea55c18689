//! A toolbox on a generic type.

use rondo_mcp::prelude::*;

struct Store<T> {
    items: Vec<T>,
}

#[rondo_mcp::toolbox]
impl<T> Store<T>
where
    T: ToString + Send + Sync + 'static,
{
    /// Lists the items.
    #[tool]
    async fn list(&self) -> String {
        self.items
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}

fn main() {
    let _ = Router::new(ServerInfo::new("store", "1.0.0")).tools(Store { items: vec![1, 2] });
}
