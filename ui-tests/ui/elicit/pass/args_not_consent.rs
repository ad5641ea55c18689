//! `fallback = args` on a form whose yes/no field is marked `not_consent`: plain data the model
//! may fill in, so the form's fields join the tool's arguments.

use rondo_mcp::prelude::*;
use rondo_mcp::{Answer, Elicit, Form, elicit, tool};

#[derive(Elicit)]
struct Preferences {
    /// Newsletter
    #[elicit(not_consent)]
    newsletter: bool,
    /// Your city
    city: Option<String>,
}

/// Plain-data preferences: without forms, the model passes them as arguments.
#[elicit(form, fallback = args)]
fn preferences() -> Form<Preferences> {
    Form::new("Your preferences?")
}

/// Greets with the user's preferences.
#[tool(asks = [preferences])]
async fn greet(cx: &Cx, name: String) -> String {
    match cx.ask(preferences()).await {
        Answer::Accept(p) => format!("{name}: {} {:?}", p.newsletter, p.city),
        _ => name,
    }
}

fn main() {
    let tool = <greet as rondo_mcp::ToolHandler>::definition();
    let properties = &tool.input_schema["properties"];
    for name in ["name", "newsletter", "city"] {
        assert!(properties.get(name).is_some(), "{name} is an argument");
    }
    let _ = Router::new(ServerInfo::new("prefs", "1.0.0")).tools(rondo_mcp::tools![greet]);
}
