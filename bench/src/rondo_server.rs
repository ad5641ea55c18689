//! The Rondo server: `add`, and `delete_file`, which asks one form question.

use rondo_mcp::prelude::*;
use rondo_mcp::state::KeyRing;
use rondo_mcp::{Answer, Elicit, Form, elicit, tool, tools};
use std::time::Duration;

/// Adds two integers.
#[tool(read_only_hint = true)]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// The one question `delete_file` asks.
#[derive(Elicit)]
pub struct Deletion {
    /// Delete the file?
    pub confirm: bool,
}

/// Asks the user to confirm a deletion.
#[elicit(form, fallback = refuse)]
pub fn confirm_delete(path: &str) -> Form<Deletion> {
    Form::new(format!("Delete {path}?"))
}

/// Deletes a file after the user confirms (nothing is deleted: this is a benchmark).
#[tool(destructive_hint = true, asks = [confirm_delete])]
async fn delete_file(cx: &Cx, path: String) -> String {
    match cx.ask(confirm_delete(&path)).await {
        Answer::Accept(d) if d.confirm => format!("deleted {path}"),
        _ => format!("kept {path}"),
    }
}

/// Waits 300 ms, then answers (the memory run keeps many of these in flight).
#[tool(read_only_hint = true)]
async fn wait() -> String {
    tokio::time::sleep(crate::floor::WAIT).await;
    "waited".to_owned()
}

/// The router with both tools.
pub fn router() -> Router {
    Router::new(ServerInfo::new("rondo-bench", "0.0.0")).tools(tools![add, delete_file])
}

/// The server as an application would build it (a random key ring), but with the replay guard
/// off: the retry benchmark sends one sealed retry every iteration, which the guard (on by
/// default) refuses after the first. rmcp has no guard; its cost, one map entry per retry, is
/// not in the numbers.
pub fn server() -> Server<Router> {
    Server::new(router()).without_replay_guard()
}

/// [`server`] with the `wait` tool too: the stdio server.
pub fn stdio_server() -> Server<Router> {
    Server::new(router().tools(tools![wait])).without_replay_guard()
}

/// The server with a known key ring, so a benchmark can open the `requestState` it issues, and
/// a state lifetime longer than any run, so one sealed state can be replayed for a whole
/// measurement (the lifetime changes no cost).
pub fn server_with_keys(keys: KeyRing) -> Server<Router> {
    Server::new(router())
        .state_keys(keys)
        .state_ttl(Duration::from_secs(3600))
}
