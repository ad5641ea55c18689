//! Shared by the travel tests: a server per test (its own store and payment page), clients at
//! either revision with a chosen set of capabilities, and what the server asked.

#![allow(dead_code)]

use rondo_example_travel::{Config, Travel, start};
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::{Direction, Script, TestClient};
use serde_json::{Value, json};

pub const BOTH: [Revision; 2] = [Revision::V2026_07_28, Revision::V2025_11_25];

/// Capabilities from their JSON.
pub fn caps(v: Value) -> ClientCapabilities {
    serde_json::from_value(v).expect("capabilities")
}

/// Everything a client can declare.
pub fn everything() -> ClientCapabilities {
    caps(json!({"elicitation": {"form": {}, "url": {}}, "sampling": {"tools": {}}, "roots": {}}))
}

/// Nothing at all.
pub fn nothing() -> ClientCapabilities {
    ClientCapabilities::default()
}

/// A server with this configuration, and its state (store, page URL).
pub async fn travel(config: Config) -> (Server<Router>, Travel) {
    start(config).await.expect("the payment page binds")
}

/// A connected client.
pub async fn client(
    server: Server<Router>,
    rev: Revision,
    caps: ClientCapabilities,
    script: Script,
) -> TestClient {
    TestClient::builder(server, rev)
        .capabilities(caps)
        .script(script)
        .connect()
        .await
        .expect("connects")
}

/// Every request the server sent the client (2026-07-28: the input requests of its
/// `InputRequiredResult`s; 2025-11-25: real requests), as (method, params).
pub fn asked(c: &TestClient) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for f in c.transcript() {
        if f.direction != Direction::Received {
            continue;
        }
        let m = f.message;
        if let (Some(method), Some(_)) = (m["method"].as_str(), m.get("id")) {
            out.push((method.to_owned(), m["params"].clone()));
        }
        for (_, req) in m["result"]["inputRequests"]
            .as_object()
            .into_iter()
            .flatten()
        {
            let method = req["method"].as_str().unwrap_or_default().to_owned();
            out.push((method, req["params"].clone()));
        }
    }
    out
}

/// The methods of [`asked`].
pub fn asked_methods(c: &TestClient) -> Vec<String> {
    asked(c).into_iter().map(|(m, _)| m).collect()
}

/// The first round of a 2026-07-28 `pay_for_trip` call for `booking`: its result (an
/// `InputRequiredResult` asking to open the payment page).
pub async fn first_round(c: &TestClient, booking: &str) -> Value {
    let call = json!({"name": "pay_for_trip", "arguments": {"booking_id": booking}});
    let first = c.request("tools/call", call).await.expect("a first round");
    assert_eq!(first["resultType"], "input_required", "{first}");
    first
}

/// The payment link a round asked the client to open.
pub fn link_in(round: &Value) -> String {
    round["inputRequests"]["pay_on_page"]["params"]["url"]
        .as_str()
        .unwrap_or_else(|| panic!("no payment link in {round}"))
        .to_owned()
}

/// A payment link for `booking`, from the first round of a call of its own.
pub async fn link_for(c: &TestClient, booking: &str) -> String {
    link_in(&first_round(c, booking).await)
}
