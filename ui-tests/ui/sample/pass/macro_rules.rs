//! A sampling question and the tool that asks it, both defined inside `macro_rules!`, the
//! question's name, answer type and fallback passed in as fragments.

#![deny(warnings)]

use rondo_mcp::prelude::*;
use rondo_mcp::{sample, tool};

#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
struct Picks {
    best: Vec<String>,
}

fn first_two(items: &[String]) -> Picks {
    Picks {
        best: items.iter().take(2).cloned().collect(),
    }
}

macro_rules! picking_tool {
    ($question:ident, $answer:ty, $fallback:path, $tool:ident) => {
        /// Lets the client's model pick.
        #[sample(fallback = $fallback)]
        fn $question(items: &[String]) -> Sample<$answer> {
            Sample::user(format!("Pick the best two of: {}", items.join(", ")))
        }

        /// Picks after asking.
        #[tool(asks = [$question])]
        async fn $tool(cx: &Cx, items: Vec<String>) -> Json<$answer> {
            Json(cx.ask($question(&items)).await)
        }
    };
}

picking_tool!(pick_two, Picks, first_two, pick);

fn main() {
    let _ = rondo_mcp::tools![pick];
}
