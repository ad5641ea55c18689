use rondo_mcp::prelude::*;
use rondo_mcp::{Answer, Elicit, Form, elicit};

#[derive(Elicit)]
struct Approval {
    /// Book it?
    approve: bool,
}

/// Asks before booking.
#[elicit(form, fallback = refuse)]
fn approve(item: &str) -> Form<Approval> {
    Form::new(format!("Book {item}?"))
}

struct Shop;

#[rondo_mcp::toolbox]
impl Shop {
    /// Books an item.
    #[tool]
    async fn book(&self, cx: &Cx, item: String) -> String {
        match cx.ask(approve(&item)).await {
            Answer::Accept(a) if a.approve => format!("booked {item}"),
            _ => "not booked".into(),
        }
    }
}

fn main() {
    let _ = Router::new(ServerInfo::new("shop", "1.0.0")).tools(Shop);
}
