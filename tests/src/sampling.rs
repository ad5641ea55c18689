//! A server whose tools ask the client's model (`#[sample]`) and the client's roots (`#[roots]`),
//! for the behaviour tests: JSON, text and whole-reply answers, a deterministic fallback, an
//! `async` fallback, a fallback that ends the tool with every candidate, `refuse`, and roots with
//! folders from a tool argument.

use rondo_mcp::prelude::*;
use rondo_mcp::{Fallback, Json, ModelReply, roots, sample, tool};
use serde::{Deserialize, Serialize};

/// A flight on offer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Flight {
    /// The flight number.
    pub number: String,
    /// The price in euros.
    pub price: u32,
    /// How many stops.
    pub stops: u32,
}

/// The flights the tools choose from.
pub fn flights() -> Vec<Flight> {
    let f = |number: &str, price, stops| Flight {
        number: number.into(),
        price,
        stops,
    };
    vec![f("RX1", 420, 1), f("RX2", 310, 0), f("RX3", 290, 2)]
}

/// The model's picks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Picks {
    /// The best flight numbers, best first.
    pub best: Vec<String>,
}

fn listing(flights: &[Flight]) -> String {
    let lines: Vec<String> = flights
        .iter()
        .map(|f| format!("{}: {} EUR, {} stops", f.number, f.price, f.stops))
        .collect();
    format!("Pick the two best flights:\n{}", lines.join("\n"))
}

/// Let the client's model pick the two best flights.
#[sample(fallback = rank_locally)]
pub fn pick_flights(flights: &[Flight]) -> Sample<Picks> {
    Sample::user(listing(flights))
        .system("You are a booking assistant.")
        .max_tokens(300)
}

/// The deterministic fallback: fewest stops, then cheapest.
pub fn rank_locally(flights: &[Flight]) -> Picks {
    let mut sorted = flights.to_vec();
    sorted.sort_by_key(|f| (f.stops, f.price));
    Picks {
        best: sorted.into_iter().take(2).map(|f| f.number).collect(),
    }
}

/// Picks the two best flights.
#[tool(asks = [pick_flights])]
pub async fn best_flights(cx: &Cx) -> Json<Picks> {
    Json(cx.ask(pick_flights(&flights())).await)
}

/// A one-line summary from the client's model.
#[sample(fallback = summarize_here)]
pub fn summary(text: &str) -> Sample {
    Sample::user(format!("Summarize in one line: {text}")).max_tokens(60)
}

/// The `async` fallback: the server's own summarizer (here, the first words).
pub async fn summarize_here(text: &str) -> String {
    tokio::task::yield_now().await;
    let words: Vec<&str> = text.split_whitespace().take(3).collect();
    format!("{}...", words.join(" "))
}

/// Summarizes a text.
#[tool(asks = [summary])]
pub async fn summarize(cx: &Cx, text: String) -> String {
    cx.ask(summary(&text)).await
}

/// The model picks with a lookup tool at hand.
#[sample(fallback = every_candidate)]
pub fn choose_with_lookup(flights: &[Flight]) -> Sample<ModelReply> {
    let lookup = Tool::new(
        "lookup_seats",
        "Free seats on a flight",
        serde_json::json!({"type": "object", "properties": {"number": {"type": "string"}}})
            .as_object()
            .cloned()
            .unwrap_or_default(),
    );
    Sample::user(listing(flights)).tools(vec![lookup])
}

/// Without tool-enabled sampling, the tool ends with every candidate, and the host's model
/// chooses in the main conversation.
pub fn every_candidate(flights: &[Flight]) -> Fallback<ModelReply> {
    Fallback::end(Json(flights.to_vec()))
}

/// Chooses a flight with the model's help.
#[tool(asks = [choose_with_lookup])]
pub async fn choose(cx: &Cx) -> String {
    let reply = cx.ask(choose_with_lookup(&flights())).await;
    let calls: Vec<String> = reply.tool_uses().into_iter().map(|u| u.name).collect();
    format!("the model called {calls:?} and said: {}", reply.text())
}

/// Sampling or nothing.
#[sample(fallback = refuse)]
pub fn capital() -> Sample {
    Sample::user("What is the capital of France?").max_tokens(100)
}

/// Needs sampling.
#[tool(asks = [capital])]
pub async fn needs_sampling(cx: &Cx) -> String {
    cx.ask(capital()).await
}

/// The folders to work in: the client's roots, or the ones the caller passed.
#[roots(fallback = given_folders)]
pub fn workspace(folders: &[String]) -> Roots;

/// The fallback: folders from the tool's argument; none is an error saying how to give them.
pub fn given_folders(folders: &[String]) -> Fallback<Roots> {
    if folders.is_empty() {
        return Fallback::fail(
            "No folder to work in: this client shares no roots; pass `folders` with the folders to use",
        );
    }
    Fallback::Answer(Roots::from_paths(folders))
}

/// Lists the folders it would work in.
#[tool(asks = [workspace])]
pub async fn folders(cx: &Cx, folders: Option<Vec<String>>) -> String {
    let roots = cx.ask(workspace(&folders.unwrap_or_default())).await;
    let paths: Vec<String> = roots
        .paths()
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    paths.join(", ")
}

/// The server.
pub fn server() -> Server<Router> {
    let tools = rondo_mcp::tools![best_flights, summarize, choose, needs_sampling, folders];
    Server::new(Router::new(ServerInfo::new("sampling", "1.0.0")).tools(tools))
}
