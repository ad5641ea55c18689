use rondo_mcp::prelude::*;
use rondo_mcp::{Answer, Elicit, Form, elicit, tool};

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

/// Books an item.
#[tool(asks = [approve, approve])]
async fn book(cx: &Cx, item: String) -> String {
    match cx.ask(approve(&item)).await {
        Answer::Accept(a) if a.approve => format!("booked {item}"),
        _ => "not booked".into(),
    }
}

fn main() {
    let _ = rondo_mcp::tools![book];
}
