//! Streamable HTTP at 2026-07-28 over a real socket: JSON and SSE answers, header-body
//! validation, version and `_meta` errors with their HTTP statuses, removed methods,
//! cancellation by closing the stream, and `subscriptions/listen`. Every message the server
//! sends is validated against the official 2026-07-28 schema.

use crate::support::http::*;
use http::{Method, StatusCode};
use rondo_mcp::http::HttpConfig;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use serde_json::{Value, json};

async fn probe() -> Running {
    start(Server::new(Probe::default()), HttpConfig::default()).await
}

/// POSTs `body` with conforming headers and returns the status and the one JSON answer.
async fn call(addr: std::net::SocketAddr, body: &Value) -> (StatusCode, Value) {
    let r = post_modern(addr, body, |_| {}).await;
    let status = r.status;
    let msg = r.json().await;
    assert_eq!(msg["id"], body["id"], "answers carry the request id");
    (status, msg)
}

fn set(h: &mut Vec<(String, String)>, name: &str, value: &str) {
    h.retain(|(k, _)| !k.eq_ignore_ascii_case(name));
    h.push((name.to_owned(), value.to_owned()));
}

fn unset(h: &mut Vec<(String, String)>, name: &str) {
    h.retain(|(k, _)| !k.eq_ignore_ascii_case(name));
}

/// Expects `400` with a `-32020` error body carrying the request id.
async fn mismatch(
    addr: std::net::SocketAddr,
    body: &Value,
    edit: impl FnOnce(&mut Vec<(String, String)>),
) {
    let r = post_modern(addr, body, edit).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let msg = r.json().await;
    assert_eq!(msg["error"]["code"], -32020, "{msg}");
    assert_eq!(msg["id"], body["id"]);
}

#[tokio::test]
async fn discover_list_and_call_over_json() {
    let s = probe().await;
    let (st, d) = call(s.addr, &modern(1, "server/discover", json!({}))).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(d["result"]["supportedVersions"], json!([V26]));
    assert_eq!(d["result"]["capabilities"]["tools"]["listChanged"], true);
    let (st, list) = call(s.addr, &modern(2, "tools/list", json!({}))).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(list["result"]["tools"][0]["name"], "add");
    let body = modern(
        3,
        "tools/call",
        json!({"name": "add", "arguments": {"a": 2, "b": 40}}),
    );
    let (st, r) = call(s.addr, &body).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(text(&r), "42");
    // An ordinary JSON-RPC error (unknown tool) is a 200 with the error body.
    let body = modern(4, "tools/call", json!({"name": "nope"}));
    let (st, e) = call(s.addr, &body).await;
    assert_eq!(
        (st, e["error"]["code"].as_i64()),
        (StatusCode::OK, Some(-32602))
    );
    s.stop().await;
}

#[tokio::test]
async fn progress_arrives_on_the_sse_stream_before_the_result() {
    let s = probe().await;
    let mut body = modern(7, "tools/call", json!({"name": "progress"}));
    body["params"]["_meta"]["progressToken"] = json!("progress-test-1");
    let r = post_modern(s.addr, &body, |_| {}).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(
        r.headers.get("x-accel-buffering").map(|v| v.as_bytes()),
        Some(&b"no"[..])
    );
    let events = r.events().await;
    assert_eq!(events.len(), 4, "{events:#?}");
    for (i, e) in events[..3].iter().enumerate() {
        assert_eq!(e["params"]["progressToken"], "progress-test-1");
        assert_eq!(e["params"]["progress"], json!(i as f64 + 1.0));
    }
    assert_eq!(text(&events[3]), "done");
    s.stop().await;
}

#[tokio::test]
async fn standard_headers_must_match_the_body() {
    let s = probe().await;
    let list = modern(10, "tools/list", json!({}));
    let add = modern(
        11,
        "tools/call",
        json!({"name": "add", "arguments": {"a": 1, "b": 2}}),
    );
    mismatch(s.addr, &list, |h| set(h, "mcp-method", "prompts/list")).await;
    mismatch(s.addr, &list, |h| set(h, "mcp-method", "TOOLS/LIST")).await;
    mismatch(s.addr, &list, |h| unset(h, "mcp-method")).await;
    mismatch(s.addr, &list, |h| unset(h, "mcp-protocol-version")).await;
    mismatch(s.addr, &add, |h| set(h, "mcp-name", "sub")).await;
    mismatch(s.addr, &add, |h| unset(h, "mcp-name")).await;
    mismatch(s.addr, &add, |h| set(h, "mcp-name", "=?base64?YWRk?")).await;
    // Names in any case, values with surrounding whitespace, the Base64 sentinel: accepted.
    let ok = |edit: fn(&mut Vec<(String, String)>)| {
        let add = add.clone();
        async move {
            let r = post_modern(s.addr, &add, edit).await;
            assert_eq!(r.status, StatusCode::OK);
            assert_eq!(text(&r.json().await), "3");
        }
    };
    ok(|h| {
        unset(h, "mcp-method");
        set(h, "MCP-METHOD", "tools/call");
    })
    .await;
    ok(|h| set(h, "mcp-name", "  add  ")).await;
    ok(|h| set(h, "Mcp-Name", "=?base64?YWRk?=")).await; // base64("add")
    s.stop().await;
}

#[tokio::test]
async fn param_headers_follow_x_mcp_header() {
    let s = probe().await;
    let body = modern(
        20,
        "tools/call",
        json!({"name": "region", "arguments": {"region": "Hello", "count": 42}}),
    );
    let with = |region: &'static str, count: &'static str| {
        move |h: &mut Vec<(String, String)>| {
            set(h, "Mcp-Param-Region", region);
            set(h, "mcp-param-count", count);
        }
    };
    for (region, count) in [("Hello", "42"), ("=?base64?SGVsbG8=?=", "42.0")] {
        let r = post_modern(s.addr, &body, with(region, count)).await;
        assert_eq!(r.status, StatusCode::OK, "{region} {count}");
        assert_eq!(text(&r.json().await), "\"Hello\"");
    }
    mismatch(s.addr, &body, with("=?base64?SGVsbG8?=", "42")).await;
    mismatch(s.addr, &body, with("=?base64?SGVs!!!bG8=?=", "42")).await;
    mismatch(s.addr, &body, with("hello", "42")).await;
    mismatch(s.addr, &body, with("Hello", "43")).await;
    mismatch(s.addr, &body, |h| set(h, "mcp-param-region", "Hello")).await;
    // Absent argument: no header expected.
    let only_count = modern(
        21,
        "tools/call",
        json!({"name": "region", "arguments": {"count": 1}}),
    );
    let r = post_modern(s.addr, &only_count, |h| set(h, "mcp-param-count", "1")).await;
    assert_eq!(r.status, StatusCode::OK);
    s.stop().await;
}

#[tokio::test]
async fn version_and_meta_errors_are_400() {
    let s = probe().await;
    // Both say v999.0.0: unsupported, with the supported list.
    let mut body = modern(301, "server/discover", json!({}));
    body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("v999.0.0");
    let r = post_modern(s.addr, &body, |h| {
        set(h, "mcp-protocol-version", "v999.0.0")
    })
    .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let e = r.json().await;
    assert_eq!(e["error"]["code"], -32022);
    assert_eq!(
        e["error"]["data"],
        json!({"supported": [V26], "requested": "v999.0.0"})
    );
    assert_eq!(e["id"], 301);
    // The header says 2026-07-28, `_meta` says otherwise: a mismatch.
    mismatch(s.addr, &body, |_| {}).await;
    // Missing `_meta`, or one lacking a required field: -32602 and 400.
    let bare = json!({"jsonrpc": "2.0", "id": 101, "method": "server/discover", "params": {}});
    let mut no_caps = modern(104, "server/discover", json!({}));
    no_caps["params"]["_meta"]
        .as_object_mut()
        .unwrap()
        .remove("io.modelcontextprotocol/clientCapabilities");
    let why = "sends server/discover without its required _meta fields";
    let sloppy = Checks::new(Revision::V2026_07_28).skip("DiscoverRequest", why);
    for body in [bare, no_caps] {
        let r = sloppy.post_modern(s.addr, &body, |_| {}).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST);
        let e = r.json().await;
        assert_eq!(
            (e["error"]["code"].as_i64(), &e["id"]),
            (Some(-32602), &body["id"])
        );
    }
    s.stop().await;
}

/// A request the server routes by a param (`tools/call` and `prompts/get` by `name`,
/// `resources/read` by `uri`) without it, or with it not a string, is malformed: `-32602`
/// and 400, as for any missing required field.
#[tokio::test]
async fn a_request_without_its_routing_param_is_400() {
    let s = probe().await;
    let sloppy = Checks::new(Revision::V2026_07_28)
        .skip("CallToolRequest", "sends ill-typed names on purpose")
        .skip("GetPromptRequest", "sends ill-typed names on purpose")
        .skip("ReadResourceRequest", "sends ill-typed uris on purpose");
    let bodies = [
        modern(401, "tools/call", json!({"name": 5, "arguments": {}})),
        modern(402, "tools/call", json!({"arguments": {}})),
        modern(403, "tools/call", json!({"name": null})),
        modern(404, "tools/call", json!({"name": ["add"]})),
        modern(405, "prompts/get", json!({"name": {"n": 1}})),
        modern(406, "resources/read", json!({"uri": 7})),
    ];
    for body in bodies {
        let r = sloppy.post_modern(s.addr, &body, |_| {}).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}");
        let e = r.json().await;
        assert_eq!(
            (e["error"]["code"].as_i64(), &e["id"]),
            (Some(-32602), &body["id"]),
            "{e}"
        );
    }
    s.stop().await;
}

#[tokio::test]
async fn removed_and_unknown_methods_are_404() {
    let s = probe().await;
    let methods = [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
        "unknown/method",
    ];
    for m in methods {
        let body = modern(500, m, json!({"uri": "test://x", "level": "info"}));
        let why = "calls methods 2026-07-28 does not have";
        let sloppy = Checks::new(Revision::V2026_07_28).skip("ClientRequest", why);
        let r = sloppy.post_modern(s.addr, &body, |_| {}).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{m}");
        let e = r.json().await;
        assert_eq!(
            (e["error"]["code"].as_i64(), &e["id"]),
            (Some(-32601), &json!(500)),
            "{m}"
        );
    }
    s.stop().await;
}

#[tokio::test]
async fn missing_client_capability_is_400() {
    let s = probe().await;
    let body = modern(401, "tools/call", json!({"name": "needs_sampling"}));
    let (st, e) = call(s.addr, &body).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(
        e["error"]["data"]["requiredCapabilities"],
        json!({"sampling": {}})
    );
    s.stop().await;
}

#[tokio::test]
async fn get_delete_are_405_and_notifications_202() {
    let s = probe().await;
    // A session id that names no live session: 404 (2025-11-25 § Session Management).
    for m in [Method::GET, Method::DELETE] {
        let r = send(
            s.addr,
            request(m.clone(), &[ACCEPT, ("mcp-session-id", "stale")], None),
        )
        .await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{m}");
    }
    for m in [Method::GET, Method::DELETE, Method::PUT] {
        let r = send(s.addr, request(m.clone(), &[ACCEPT], None)).await;
        assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED, "{m}");
        assert_eq!(
            r.headers.get("allow").map(|v| v.as_bytes()),
            Some(&b"POST"[..])
        );
    }
    let note = json!({"jsonrpc": "2.0", "method": "notifications/whatever"});
    let why = "sends a notification 2026-07-28 does not have";
    let sloppy = Checks::new(Revision::V2026_07_28).skip("ClientNotification", why);
    let r = sloppy
        .send(
            s.addr,
            request(
                Method::POST,
                &[ACCEPT, ("mcp-protocol-version", V26)],
                Some(&note),
            ),
        )
        .await;
    assert_eq!(r.status, StatusCode::ACCEPTED);
    assert!(r.text().await.is_empty());
    // A modern request naming a session id is still served statelessly.
    let r = post_modern(s.addr, &modern(9, "tools/list", json!({})), |h| {
        set(h, "mcp-session-id", "x")
    })
    .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.headers.get("mcp-session-id").is_none());
    s.stop().await;
}

#[tokio::test]
async fn closing_the_stream_cancels_the_request() {
    let probe = Probe::default();
    let dropped = probe.dropped.arm();
    let s = start(Server::new(probe), HttpConfig::default()).await;
    let mut body = modern(30, "tools/call", json!({"name": "hang"}));
    body["params"]["_meta"]["progressToken"] = json!(1);
    let mut r = post_modern(s.addr, &body, |_| {}).await;
    let first = r.event().await.expect("progress");
    assert_eq!(first["method"], "notifications/progress");
    drop(r);
    bounded("the handler's future is dropped", dropped)
        .await
        .expect("dropped");
    s.stop().await;
}

#[tokio::test]
async fn listen_acknowledges_filters_and_ends_at_shutdown() {
    let s = probe().await;
    let listen = modern(
        40,
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true, "resourcesListChanged": true}}),
    );
    let mut stream = post_modern(s.addr, &listen, |_| {}).await;
    assert_eq!(stream.content_type(), "text/event-stream");
    let ack = stream.event().await.expect("ack");
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    // Only what the server advertises is honoured (no resources here).
    assert_eq!(
        ack["params"]["notifications"],
        json!({"toolsListChanged": true})
    );
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        40
    );
    // The tool announces a prompt change (not asked for) and a tool change.
    let (_, r) = call(
        s.addr,
        &modern(41, "tools/call", json!({"name": "change_tools"})),
    )
    .await;
    assert_eq!(text(&r), "announced");
    let changed = stream.event().await.expect("list_changed");
    assert_eq!(changed["method"], "notifications/tools/list_changed");
    assert_eq!(
        changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        40
    );
    // Graceful shutdown ends the stream with the completion result.
    let stopping = tokio::spawn(s.stop());
    let done = stream.event().await.expect("completion");
    assert_eq!(done["id"], 40);
    assert_eq!(
        done["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        40
    );
    assert!(stream.event().await.is_none());
    bounded("shutdown", stopping).await.expect("stopped");
}
