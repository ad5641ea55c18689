//! A router's registry over HTTP: a change made while serving reaches a 2025-11-25 session's
//! GET stream (and sessions of 2025-03-26 and 2025-06-18), a 2026-07-28 listen stream, and an
//! HTTP+SSE session of 2024-11-05; after it the lists show it and a removed tool is unknown.
//! Every message is checked against the official schema of its revision.

use crate::support::http::sse::SseSession;
use crate::support::http::*;
use http::{Method, StatusCode};
use rondo_mcp::http::HttpConfig;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use rondo_mcp::{Registry, tool, tools};
use serde_json::{Value, json};

/// Served from the start.
#[tool]
async fn first() -> &'static str {
    "first"
}
/// Added while serving.
#[tool]
async fn second() -> &'static str {
    "second"
}

async fn served() -> (Running, Registry) {
    let mut router = Router::new(ServerInfo::new("registry", "1.0.0")).tools(tools![first]);
    let registry = router.registry();
    (
        start(Server::new(router), HttpConfig::default()).await,
        registry,
    )
}

fn req(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn names(list: &Value) -> Vec<&str> {
    let tools = list["result"]["tools"].as_array().expect("tools");
    tools.iter().map(|t| t["name"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn a_session_s_get_stream_hears_each_change_at_every_streamable_revision() {
    for rev in [
        Revision::V2025_03_26,
        Revision::V2025_06_18,
        Revision::V2025_11_25,
    ] {
        let (running, registry) = served().await;
        let client = json!({"name": "http-tests", "version": "1.0.0"});
        let session = Session::open_at(running.addr, rev, None, json!({}), client).await;
        let mut stream = session.send(Method::GET, None).await;
        assert_eq!(stream.status, StatusCode::OK, "{rev:?}");
        registry.add_tools(tools![second]).unwrap();
        let heard = stream.event().await.expect("a change");
        assert_eq!(
            heard["method"], "notifications/tools/list_changed",
            "{rev:?}"
        );
        let list = session
            .post(&req(1, "tools/list", json!({})))
            .await
            .json()
            .await;
        assert_eq!(names(&list), ["first", "second"], "{rev:?}");
        registry.remove_tool("first").unwrap();
        let heard = stream.event().await.expect("a change");
        assert_eq!(
            heard["method"], "notifications/tools/list_changed",
            "{rev:?}"
        );
        let call = req(2, "tools/call", json!({"name": "first", "arguments": {}}));
        let gone = session.post(&call).await.json().await;
        assert_eq!(gone["error"]["message"], "Unknown tool: first", "{rev:?}");
        drop(stream);
        running.stop().await;
    }
}

#[tokio::test]
async fn a_listen_stream_hears_each_change() {
    let (running, registry) = served().await;
    let listen = modern(
        7,
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true, "promptsListChanged": true}}),
    );
    let mut stream = post_modern(running.addr, &listen, |_| {}).await;
    let ack = stream.event().await.expect("ack");
    assert_eq!(
        ack["params"]["notifications"],
        json!({"toolsListChanged": true, "promptsListChanged": true})
    );
    registry.add_tools(tools![second]).unwrap();
    let heard = stream.event().await.expect("a change");
    assert_eq!(heard["method"], "notifications/tools/list_changed");
    assert_eq!(
        heard["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        7
    );
    let list = post_modern(running.addr, &modern(8, "tools/list", json!({})), |_| {}).await;
    assert_eq!(names(&list.json().await), ["first", "second"]);
    registry.remove_tool("second").unwrap();
    let heard = stream.event().await.expect("a change");
    assert_eq!(heard["method"], "notifications/tools/list_changed");
    let call = modern(9, "tools/call", json!({"name": "second", "arguments": {}}));
    let gone = post_modern(running.addr, &call, |_| {}).await.json().await;
    assert_eq!(gone["error"]["message"], "Unknown tool: second");
    let stopping = tokio::spawn(running.stop());
    while stream.event().await.is_some() {}
    bounded("shutdown", stopping).await.expect("stopped");
}

#[tokio::test]
async fn an_http_sse_session_hears_each_change() {
    let (running, registry) = served().await;
    let mut s = SseSession::open(running.addr, Revision::V2024_11_05).await;
    s.initialize("2024-11-05", json!({})).await;
    registry.add_tools(tools![second]).unwrap();
    assert_eq!(
        s.message().await["method"],
        "notifications/tools/list_changed"
    );
    let list = s.call(1, "tools/list", json!({})).await;
    assert_eq!(names(&list), ["first", "second"]);
    registry.remove_tool("first").unwrap();
    assert_eq!(
        s.message().await["method"],
        "notifications/tools/list_changed"
    );
    let gone = s
        .call(2, "tools/call", json!({"name": "first", "arguments": {}}))
        .await;
    assert_eq!(gone["error"]["message"], "Unknown tool: first");
    running.stop().await;
}
