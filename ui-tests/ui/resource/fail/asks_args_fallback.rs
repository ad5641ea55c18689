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

/// The guest's note.
#[rondo_mcp::resource("guests://note", asks = [guest])]
async fn note(cx: &Cx) -> ResourceContents {
    let name = match cx.ask(guest()).await {
        Answer::Accept(g) => g.name,
        _ => "nobody".into(),
    };
    ResourceContents::text("guests://note", "text/plain", name)
}

fn main() {
    let _ = rondo_mcp::resources![note];
}
