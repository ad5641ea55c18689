//! Change notifications on the newline transport: a 2025-11-25 session hears advertised list
//! changes without asking (it has no listen request), a 2026-07-28 `subscriptions/listen` is
//! acknowledged and its notifications tagged, and end of input ends an open listen stream at
//! once instead of waiting out the drain period.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::{TestClient, Validator};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

struct Announcer;

impl Handler for Announcer {
    fn info(&self) -> ServerInfo {
        ServerInfo::new("announcer", "1.0.0").with_tools_list_changed()
    }
}

async fn until<F: Fn() -> bool>(what: &str, done: F) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_legacy_stdio_session_hears_advertised_list_changes() {
    let server = Server::new(Announcer);
    let notifier = server.notifier();
    let client = TestClient::legacy(server).connect().await.unwrap();
    let heard = || {
        client
            .transcript()
            .iter()
            .any(|f| f.message["method"] == "notifications/tools/list_changed")
    };
    // The forwarding task subscribes during `initialize`; announce until it is heard once.
    let start = Instant::now();
    while !heard() {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the change was never forwarded"
        );
        notifier.tools_list_changed();
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    notifier.prompts_list_changed(); // not advertised: never forwarded
    client.list_tools().await.unwrap();
    until("the tools/list answer", || {
        client
            .transcript()
            .iter()
            .any(|f| f.message["result"]["tools"].is_array())
    })
    .await;
    assert!(
        !client
            .transcript()
            .iter()
            .any(|f| f.message["method"] == "notifications/prompts/list_changed")
    );
}

#[tokio::test]
async fn a_modern_listen_stream_is_acknowledged_and_tagged() {
    let server = Server::new(Announcer);
    let notifier = server.notifier();
    let client = TestClient::modern(server).connect().await.unwrap();
    let listen = json!({"jsonrpc": "2.0", "id": "sub", "method": "subscriptions/listen",
        "params": {"_meta": client.request_meta(),
                   "notifications": {"toolsListChanged": true, "promptsListChanged": true}}});
    client.raw_line(&listen.to_string()).await;
    let received = |method: &str| -> Vec<Value> {
        client
            .transcript()
            .into_iter()
            .filter(|f| f.message["method"] == method)
            .map(|f| f.message["params"].clone())
            .collect()
    };
    until("the acknowledgement", || {
        !received("notifications/subscriptions/acknowledged").is_empty()
    })
    .await;
    let ack = &received("notifications/subscriptions/acknowledged")[0];
    // Only what the server advertises is honoured, and the stream is named by the request id.
    assert_eq!(ack["notifications"], json!({"toolsListChanged": true}));
    assert_eq!(
        ack["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "sub"
    );
    notifier.prompts_list_changed(); // not advertised: never delivered
    notifier.tools_list_changed();
    until("the tool list change", || {
        !received("notifications/tools/list_changed").is_empty()
    })
    .await;
    let changed = &received("notifications/tools/list_changed")[0];
    assert_eq!(
        changed["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "sub"
    );
    assert!(received("notifications/prompts/list_changed").is_empty());
    // Every line, the acknowledgement included, was checked against the schema.
    client.assert_valid();
}

/// The clock is paused: it moves only when every task waits, so "at once" means before any
/// time passes at all, and the 10 s drain would show as a timeout.
#[tokio::test(start_paused = true)]
async fn end_of_input_ends_an_open_listen_stream_at_once() {
    let mut check = Validator::new(Revision::V2026_07_28);
    let (mut to_server, server_r) = tokio::io::duplex(1 << 16);
    let (server_w, from_server) = tokio::io::duplex(1 << 16);
    let served = tokio::spawn(Server::new(Announcer).serve_io(server_r, server_w));
    let listen = json!({"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}},
        "notifications": {"toolsListChanged": true}}})
    .to_string();
    check.sent(&listen);
    to_server
        .write_all(format!("{listen}\n").as_bytes())
        .await
        .unwrap();
    let mut lines = BufReader::new(from_server).lines();
    let ack = lines
        .next_line()
        .await
        .unwrap()
        .expect("the acknowledgement");
    check.received(&ack);
    check.assert_valid();
    let ack: Value = serde_json::from_str(&ack).unwrap();
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    let closed = tokio::time::Instant::now();
    drop(to_server);
    tokio::time::timeout(Duration::from_secs(5), served)
        .await
        .expect("serve_io returns without waiting out the 10 s drain")
        .unwrap()
        .unwrap();
    assert_eq!(
        closed.elapsed(),
        Duration::ZERO,
        "no time passed on the paused clock"
    );
    assert_eq!(
        lines.next_line().await.unwrap(),
        None,
        "nothing is sent for a cancelled listen"
    );
}

/// Twenty `subscriptions/listen` cancelled and sent again under one id, then end of input: the
/// last stream ends at once (a cancelled stream, finishing, used to forget the next one under
/// its id, which then waited out the 10 s drain).
#[tokio::test(start_paused = true)]
async fn reused_listen_ids_still_end_at_end_of_input() {
    let (mut to_server, server_r) = tokio::io::duplex(1 << 20);
    let (server_w, from_server) = tokio::io::duplex(1 << 20);
    let served = tokio::spawn(Server::new(Announcer).serve_io(server_r, server_w));
    let listen = json!({"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}},
        "notifications": {"toolsListChanged": true}}});
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 1}});
    let mut lines = BufReader::new(from_server).lines();
    // One write: every line is read before a cancelled stream's task gets to finish.
    let mut input = format!("{listen}\n{cancel}\n").repeat(20);
    input.push_str(&format!("{listen}\n"));
    to_server.write_all(input.as_bytes()).await.unwrap();
    // The last stream's acknowledgement; then the cancelled streams' tasks get to finish.
    let ack = lines
        .next_line()
        .await
        .unwrap()
        .expect("an acknowledgement");
    assert!(
        ack.contains("notifications/subscriptions/acknowledged"),
        "{ack}"
    );
    for _ in 0..100 {
        tokio::task::yield_now().await;
    }
    let closed = tokio::time::Instant::now();
    drop(to_server);
    let reader = tokio::spawn(async move { while lines.next_line().await.unwrap().is_some() {} });
    tokio::time::timeout(Duration::from_secs(5), served)
        .await
        .expect("serve_io returns without waiting out the 10 s drain")
        .unwrap()
        .unwrap();
    assert_eq!(
        closed.elapsed(),
        Duration::ZERO,
        "no time passed on the paused clock"
    );
    reader.await.unwrap();
}
