//! Every kind of sampling answer: `Sample` (text), `Sample<String>`, `Sample<T>` for a
//! `Deserialize + JsonSchema` type, and `Sample<ModelReply>` with tools, each what `cx.ask`
//! returns.

#![deny(warnings)]

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::ToolChoice;
use rondo_mcp::{Fallback, ModelReply, sample, tool};

#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
struct Picks {
    best: Vec<String>,
}

/// The default answer is the text.
#[sample(fallback = refuse)]
fn text() -> Sample {
    Sample::user("Say hello.")
}

/// `Sample<String>`, written out.
#[sample(fallback = refuse)]
fn string() -> Sample<String> {
    Sample::user("Say hello.")
}

/// JSON matching `Picks`' schema.
#[sample(fallback = rank_locally)]
fn picks(flights: &[String]) -> Sample<Picks> {
    Sample::user(flights.join("\n")).system("Pick the two best flights.")
}

fn rank_locally(flights: &[String]) -> Picks {
    Picks {
        best: flights.iter().take(2).cloned().collect(),
    }
}

/// The whole reply, with the tool calls the model asked for.
#[sample(fallback = every_flight)]
fn with_tools(flights: &[String]) -> Sample<ModelReply> {
    let seats = Tool::new(
        "lookup_seats",
        "Free seats on a flight",
        serde_json::Map::new(),
    );
    Sample::user(flights.join("\n"))
        .tools(vec![seats])
        .tool_choice(ToolChoice::Auto)
}

fn every_flight(flights: &[String]) -> Fallback<ModelReply> {
    Fallback::end(Json(flights.to_vec()))
}

/// Asks every question and uses each answer as its type.
#[tool(asks = [text, string, picks, with_tools])]
async fn everything(cx: &Cx, flights: Vec<String>) -> String {
    let a: String = cx.ask(text()).await;
    let b: String = cx.ask(string()).await;
    let c: Picks = cx.ask(picks(&flights)).await;
    let d: ModelReply = cx.ask(with_tools(&flights)).await;
    let calls: Vec<String> = d.tool_uses().into_iter().map(|u| u.name).collect();
    format!("{a} {b} {:?} {calls:?} {}", c.best, d.text())
}

fn main() {
    let _ = rondo_mcp::tools![everything];
}
