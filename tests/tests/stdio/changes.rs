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

/// A server that announces resource updates (for the listen bounds).
struct Watched;

impl Handler for Watched {
    fn info(&self) -> ServerInfo {
        ServerInfo::new("watched", "1.0.0")
            .with_tools_list_changed()
            .with_resource_subscriptions()
    }
}

/// A client of `serve_io` that checks every line against the schema of `rev`.
struct Lines {
    to: tokio::io::DuplexStream,
    from: tokio::io::Lines<BufReader<tokio::io::DuplexStream>>,
    check: Validator,
}

impl Lines {
    fn start(server: Server<Watched>, rev: Revision) -> Lines {
        let (to, server_r) = tokio::io::duplex(1 << 22);
        let (server_w, from) = tokio::io::duplex(1 << 22);
        tokio::spawn(server.serve_io(server_r, server_w));
        Lines {
            to,
            from: BufReader::new(from).lines(),
            check: Validator::new(rev),
        }
    }

    async fn send(&mut self, msg: Value) {
        let line = msg.to_string();
        self.check.sent(&line);
        self.check.assert_valid();
        self.to
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    }

    async fn recv(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(5), self.from.next_line())
            .await
            .expect("an answer in time")
            .unwrap()
            .expect("a line");
        self.check.received(&line);
        self.check.assert_valid();
        serde_json::from_str(&line).unwrap()
    }
}

fn modern_listen(id: i64, uris: Vec<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}},
        "notifications": {"toolsListChanged": true, "resourceSubscriptions": uris}}})
}

/// `Server::max_listens` bounds the streams open at once (one more is refused with a message
/// saying so, and a closed stream gives its place back), and `Server::max_listen_uris` and
/// the URI length bound what one stream follows.
#[tokio::test]
async fn listen_streams_and_their_uris_are_bounded() {
    let server = Server::new(Watched).max_listens(2).max_listen_uris(3);
    let mut c = Lines::start(server, Revision::V2026_07_28);
    let uris = |n: usize| (0..n).map(|i| format!("file:///r/{i}")).collect::<Vec<_>>();
    for id in [1, 2] {
        c.send(modern_listen(id, uris(3))).await;
        let ack = c.recv().await;
        assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    }
    c.send(modern_listen(3, uris(1))).await;
    let e = c.recv().await;
    assert_eq!(
        (e["id"].clone(), e["error"]["code"].clone()),
        (json!(3), json!(-32603))
    );
    let why = e["error"]["message"].as_str().unwrap();
    assert!(why.contains("at most 2 open at once"), "{why}");
    // Closing one gives its place back.
    c.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}),
    )
    .await;
    let started = Instant::now();
    let ack = loop {
        c.send(modern_listen(4, uris(1))).await;
        let m = c.recv().await;
        if m["method"] == "notifications/subscriptions/acknowledged" {
            break m;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the place came back: {m}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        4
    );
    // Four URIs, or one URI of 9 KiB: refused, naming the bound.
    for (id, list) in [
        (5, uris(4)),
        (6, vec![format!("file:///{}", "x".repeat(9 * 1024))]),
    ] {
        c.send(modern_listen(id, list)).await;
        let e = c.recv().await;
        assert_eq!(
            (e["id"].clone(), e["error"]["code"].clone()),
            (json!(id), json!(-32602))
        );
        let why = e["error"]["message"].as_str().unwrap();
        assert!(
            why.contains("at most 3 URIs") || why.contains("longer than 8192 bytes"),
            "{why}"
        );
    }
}

/// A 2025-11-25 session's `resources/subscribe`s are bounded by the same setting.
#[tokio::test]
async fn legacy_resource_subscriptions_are_bounded() {
    let mut c = Lines::start(
        Server::new(Watched).max_listen_uris(2),
        Revision::V2025_11_25,
    );
    c.send(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}}),
    )
    .await;
    assert!(c.recv().await["result"].is_object());
    for (id, uri) in [
        (1, "file:///a"),
        (2, "file:///b"),
        (3, "file:///a"),
        (4, "file:///c"),
    ] {
        c.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "resources/subscribe",
                      "params": {"uri": uri}}),
        )
        .await;
        let r = c.recv().await;
        if id < 4 {
            assert_eq!(r["result"], json!({}), "{r}");
        } else {
            assert_eq!(r["error"]["code"], -32602, "{r}");
            let why = r["error"]["message"].as_str().unwrap();
            assert!(why.contains("at most 2 URIs"), "{why}");
        }
    }
}
