use rondo_mcp::prelude::*;
use rondo_mcp::{Answer, Elicit, Form, elicit};

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
#[rondo_mcp::prompt(asks = [guest])]
async fn greeting(cx: &Cx) -> String {
    match cx.ask(guest()).await {
        Answer::Accept(g) => format!("Greet {}", g.name),
        _ => "Greet nobody".into(),
    }
}

fn main() {
    let _ = rondo_mcp::prompts![greeting];
}
