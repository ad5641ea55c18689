//! `asks = [..]` on `#[toolbox]` methods: each method declares its own questions, a method
//! without questions still has its context, and a method named like a question it asks works.

use rondo_mcp::prelude::*;
use rondo_mcp::{Answer, Elicit, Form, elicit};

#[derive(Elicit)]
struct Approval {
    /// Go ahead?
    approve: bool,
}

/// Asks before booking.
#[elicit(form, fallback = refuse)]
fn approve(item: &str) -> Form<Approval> {
    Form::new(format!("Book {item}?"))
}

/// Asks before cancelling.
#[elicit(form, fallback = refuse)]
fn cancel(item: &str) -> Form<Approval> {
    Form::new(format!("Cancel {item}?"))
}

struct Shop<T> {
    stock: T,
}

#[rondo_mcp::toolbox]
impl<T: Clone + Send + Sync + std::fmt::Debug + 'static> Shop<T> {
    /// Books an item.
    #[tool(asks = [approve])]
    async fn book(&self, cx: &Cx, item: String) -> String {
        match cx.ask(approve(&item)).await {
            Answer::Accept(a) if a.approve => format!("booked {item} from {:?}", self.stock),
            _ => "not booked".into(),
        }
    }

    /// Cancels an item: the method has the name of the question it asks.
    #[tool(asks = [cancel, approve])]
    async fn cancel(&self, cx: &Cx, item: String) -> String {
        match cx.ask(cancel(&item)).await {
            Answer::Accept(a) if a.approve => format!("cancelled {item}"),
            _ => "kept".into(),
        }
    }

    /// Counts the stock, asking nothing.
    #[tool]
    async fn count(&self, cx: &Cx) -> String {
        format!("{:?} at {:?}", self.stock, cx.revision())
    }
}

fn main() {
    let _ = Router::new(ServerInfo::new("shop", "1.0.0")).tools(Shop { stock: 3u32 });
}
