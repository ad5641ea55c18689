use rondo_mcp::prelude::*;
use rondo_mcp::{sample, tool};

/// Asks the client's model.
#[sample(fallback = refuse)]
fn capital(country: &str) -> Sample {
    Sample::user(format!("What is the capital of {country}?"))
}

/// Names a capital.
#[tool]
async fn name_capital(cx: &Cx, country: String) -> String {
    cx.ask(capital(&country)).await
}

fn main() {}
