use rondo_mcp::prelude::*;
use rondo_mcp::{Elicit, Form, elicit, tool};

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
#[tool(asks = [approve])]
async fn book(_: &Cx, item: String) -> String {
    item
}

fn main() {
    let _ = rondo_mcp::tools![book];
}
