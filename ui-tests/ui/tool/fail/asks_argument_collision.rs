use rondo_mcp::prelude::*;
use rondo_mcp::{Answer, Elicit, Form, elicit, tool};

#[derive(Elicit)]
struct Guest {
    /// Your name
    name: String,
}

/// Asks who is there.
#[elicit(form, fallback = args)]
fn guest() -> Form<Guest> {
    Form::new("Who is there?")
}

/// Greets a guest.
#[tool(asks = [guest])]
async fn welcome(cx: &Cx, name: String) -> String {
    match cx.ask(guest()).await {
        Answer::Accept(g) => format!("{name} welcomes {}", g.name),
        _ => name,
    }
}

fn main() {
    let _ = rondo_mcp::tools![welcome];
}
