//! Streamable HTTP sessions of 2025-06-18 and 2025-03-26 over a real socket: each revision's
//! `MCP-Protocol-Version` rules, and 2025-03-26's JSON-RPC batches (a JSON array of responses,
//! or an SSE stream when a batched request sends something first). Every message the server
//! sends is validated against the session's revision's official schema, closed (a member the
//! revision does not define fails).

use crate::support::http::*;
use http::{Method, StatusCode};
use rondo_mcp::http::HttpConfig;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use serde_json::{Value, json};

fn req(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

async fn probe() -> Running {
    start(Server::new(Probe::default()), HttpConfig::default()).await
}

async fn session(s: &Running, revision: Revision) -> Session {
    let client = json!({"name": "http-tests", "version": "1.0.0"});
    let caps = match revision >= Revision::V2025_06_18 {
        true => json!({"elicitation": {}}),
        false => json!({}),
    };
    Session::open_at(s.addr, revision, None, caps, client).await
}

#[tokio::test]
async fn every_handshake_revision_opens_a_session_over_http() {
    let s = probe().await;
    for revision in [
        Revision::V2024_11_05,
        Revision::V2025_03_26,
        Revision::V2025_06_18,
        Revision::V2025_11_25,
    ] {
        let session = session(&s, revision).await;
        let tools = session.post(&req(1, "tools/list", json!({}))).await;
        assert_eq!(tools.status, StatusCode::OK, "{revision}");
        let tools = tools.json().await;
        assert_eq!(tools["result"]["tools"][0]["name"], "add", "{revision}");
    }
    s.stop().await;
}

#[tokio::test]
async fn a_version_header_must_name_the_session_s_revision_and_may_be_left_out() {
    let s = probe().await;
    for revision in [Revision::V2025_03_26, Revision::V2025_06_18] {
        let session = session(&s, revision).await;
        let ping = req(1, "ping", json!({}));
        // Absent: the negotiated version is the session's (2025-06-18 § Transports: "relying
        // on the protocol version negotiated during initialization").
        let r = session
            .send_with_version(Method::POST, Some(&ping), None)
            .await;
        assert_eq!(r.status, StatusCode::OK, "{revision}");
        let own = Some(revision.as_str());
        let r = session
            .send_with_version(Method::POST, Some(&ping), own)
            .await;
        assert_eq!(r.status, StatusCode::OK, "{revision}");
        let other = session
            .send_with_version(Method::POST, Some(&ping), Some("2025-11-25"))
            .await;
        assert_eq!(other.status, StatusCode::BAD_REQUEST, "{revision}");
    }
    s.stop().await;
}

#[tokio::test]
async fn a_2025_03_26_batch_is_answered_with_one_json_array() {
    let s = probe().await;
    let session = session(&s, Revision::V2025_03_26).await;
    let batch = json!([
        req(1, "tools/call", json!({"name": "add", "arguments": {"a": 2, "b": 3}})),
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 77}},
        req(2, "ping", json!({})),
        req(3, "tools/call", json!({"name": "nope", "arguments": {}})),
    ]);
    let r = session.post(&batch).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.content_type(), "application/json");
    let answer = r.json().await;
    let mut ids: Vec<i64> = answer
        .as_array()
        .expect("an array")
        .iter()
        .map(|m| m["id"].as_i64().unwrap())
        .collect();
    ids.sort();
    assert_eq!(ids, [1, 2, 3], "{answer}");
    let sum = answer
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == 1)
        .unwrap();
    assert_eq!(text(sum), "5");
    s.stop().await;
}

#[tokio::test]
async fn a_batch_that_sends_first_is_an_sse_stream_of_single_messages() {
    let s = probe().await;
    let session = session(&s, Revision::V2025_03_26).await;
    let batch = json!([
        req(
            1,
            "tools/call",
            json!({"name": "progress", "arguments": {},
            "_meta": {"progressToken": "p"}})
        ),
        req(
            2,
            "tools/call",
            json!({"name": "add", "arguments": {"a": 1, "b": 1}})
        ),
    ]);
    let r = session.post(&batch).await;
    assert_eq!(r.content_type(), "text/event-stream");
    let events = r.events().await;
    let progress = events
        .iter()
        .filter(|e| e["method"] == "notifications/progress")
        .count();
    assert_eq!(progress, 3, "{events:?}");
    let mut ids: Vec<i64> = events.iter().filter_map(|e| e["id"].as_i64()).collect();
    ids.sort();
    assert_eq!(ids, [1, 2], "{events:?}");
    // Each event is one message, never an array.
    assert!(events.iter().all(Value::is_object), "{events:?}");
    s.stop().await;
}

#[tokio::test]
async fn a_batch_of_notifications_is_accepted_and_bad_batches_are_refused() {
    let s = probe().await;
    let session = session(&s, Revision::V2025_03_26)
        .await
        .skip_validation_of("JSONRPCMessage", "sends an empty batch");
    let notes = json!([{"jsonrpc": "2.0", "method": "notifications/initialized"}]);
    assert_eq!(session.post(&notes).await.status, StatusCode::ACCEPTED);
    let too_many: Vec<Value> = (0..101).map(|i| req(i, "ping", json!({}))).collect();
    for (bad, why) in [
        (json!([]), "an empty batch"),
        (json!(too_many), "more than 100"),
    ] {
        let r = session.post(&bad).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST);
        let e = r.json().await;
        assert_eq!(e["error"]["code"], -32600, "{e}");
        assert!(
            e["error"]["data"]["reason"].as_str().unwrap().contains(why),
            "{e}"
        );
    }
    // `initialize` may not be batched; nor may anything outside a 2025-03-26 session.
    let init = req(
        9,
        "initialize",
        json!({"protocolVersion": "2025-03-26",
        "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}),
    );
    let r = session.post(&json!([init])).await.json().await;
    assert_eq!(r[0]["error"]["code"], -32600, "{r}");
    let newer = self::session(&s, Revision::V2025_06_18)
        .await
        .skip_validation_of("JSONRPCMessage", "sends a batch, which 2025-06-18 removed");
    let r = newer.post(&json!([req(1, "ping", json!({}))])).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    s.stop().await;
}
