//! The answer type is reported once, where the request is built: the fallback that returns it
//! and the ask that names it add nothing.

use rondo_mcp::prelude::*;
use rondo_mcp::{sample, tool};

struct Picks {
    best: Vec<String>,
}

#[sample(fallback = rank_locally)]
fn pick(flights: &[String]) -> Sample<Picks> {
    Sample::user(flights.join("\n"))
}

fn rank_locally(flights: &[String]) -> Picks {
    Picks { best: flights.to_vec() }
}

/// Picks.
#[tool(asks = [pick])]
async fn best(cx: &Cx, flights: Vec<String>) -> String {
    cx.ask(pick(&flights)).await.best.join(", ")
}

fn main() {
    let _ = rondo_mcp::tools![best];
}
