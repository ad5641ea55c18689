//! The question is still declared and asked without a second error.

use rondo_mcp::prelude::*;
use rondo_mcp::{sample, tool};

#[sample]
fn capital(country: &str) -> Sample {
    Sample::user(format!("What is the capital of {country}?"))
}

/// Names a capital.
#[tool(asks = [capital])]
async fn name_capital(cx: &Cx, country: String) -> String {
    cx.ask(capital(&country)).await
}

fn main() {
    let _ = rondo_mcp::tools![name_capital];
}
