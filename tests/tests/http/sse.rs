//! The HTTP+SSE transport of 2024-11-05 over real HTTP: a whole session (initialize, lists,
//! calls, sampling and roots answered by POST, progress, logs, list changes), any handshake
//! revision on it, the refusals (unknown session, bad body, oversized body, wrong method,
//! host and origin), the principal binding, and the deadlines: a stream never read, an idle
//! session, a client that leaves, the shutdown. Every message is checked against the schema of
//! the session's revision.

use crate::support::http::sse::{self, SseSession, get};
use crate::support::http::*;
use http::StatusCode;
use rondo_mcp::http::HttpConfig;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{JsonObject, Revision};
use rondo_tests::servers::Lab;
use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const V24: Revision = Revision::V2024_11_05;

/// A 2024-11-05 session on `addr` that declared nothing, initialized.
async fn opened(addr: std::net::SocketAddr) -> SseSession {
    let mut s = SseSession::open(addr, V24).await;
    s.initialize("2024-11-05", json!({})).await;
    s
}

/// A `tools/call` of `name` without arguments.
fn tool_call(id: i64, name: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": name, "arguments": {}}})
}

/// Reads messages until the answer to `id`: the ones before it, then the answer.
async fn until_answer(s: &mut SseSession, id: i64) -> (Vec<Value>, Value) {
    let mut before = Vec::new();
    loop {
        let m = s.message().await;
        if m["id"] == id && m.get("method").is_none() {
            return (before, m);
        }
        before.push(m);
    }
}

#[tokio::test]
async fn a_2024_11_05_client_is_served_over_http_sse() {
    let running = start(Server::new(Lab::new()), HttpConfig::default()).await;
    let mut s = SseSession::open(running.addr, V24).await;
    let id = s.id().to_owned();
    assert_eq!(s.endpoint, format!("/messages?session_id={id}"));
    assert!(
        id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()),
        "{id}"
    );

    let caps = json!({"sampling": {}, "roots": {"listChanged": true}});
    let init = s.initialize("2024-11-05", caps).await;
    assert_eq!(init["protocolVersion"], "2024-11-05");
    assert_eq!(init["serverInfo"]["name"], "lab");

    let tools = s.call(1, "tools/list", json!({})).await;
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(
        names.contains(&"sample") && names.contains(&"roots"),
        "{names:?}"
    );

    // Sampling: the question comes on the stream, its answer is POSTed back.
    let call = tool_call(2, "sample");
    s.send(&call).await;
    let ask = s.message().await;
    assert_eq!(ask["method"], "sampling/createMessage", "{ask}");
    let answer = json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"role": "assistant",
        "content": {"type": "text", "text": "An old silent pond"}, "model": "test-model"}});
    s.send(&answer).await;
    let (_, done) = until_answer(&mut s, 2).await;
    assert_eq!(text(&done), "model said: An old silent pond");

    // Roots, the same way.
    let call = tool_call(3, "roots");
    s.send(&call).await;
    let ask = s.message().await;
    assert_eq!(ask["method"], "roots/list", "{ask}");
    let answer = json!({"jsonrpc": "2.0", "id": ask["id"],
        "result": {"roots": [{"uri": "file:///work", "name": "work"}]}});
    s.send(&answer).await;
    let (_, done) = until_answer(&mut s, 3).await;
    assert_eq!(text(&done), "roots=file:///work");

    // Progress and logs: notifications on the stream before the answer.
    let set = s
        .call(4, "logging/setLevel", json!({"level": "info"}))
        .await;
    assert_eq!(set["result"], json!({}));
    let call = json!({"name": "chatty", "arguments": {}, "_meta": {"progressToken": "p"}});
    s.send(&json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": call}))
        .await;
    let (notes, done) = until_answer(&mut s, 5).await;
    assert_eq!(text(&done), "done");
    let methods: Vec<&str> = notes.iter().filter_map(|n| n["method"].as_str()).collect();
    assert_eq!(
        methods,
        [
            "notifications/progress",
            "notifications/message",
            "notifications/message",
            "notifications/message",
            "notifications/progress"
        ],
        "info, warning and error logs between the two progress notes"
    );
    assert_eq!(s.call(6, "ping", json!({})).await["result"], json!({}));
    running.stop().await;
}

#[tokio::test]
async fn list_changes_the_server_announces_reach_the_stream() {
    let running = start(Server::new(Probe::default()), HttpConfig::default()).await;
    let mut s = opened(running.addr).await;
    let call = tool_call(1, "change_tools");
    s.send(&call).await;
    let mut got = [s.message().await, s.message().await];
    got.sort_by_key(|m| m["method"].is_null());
    assert_eq!(got[0]["method"], "notifications/tools/list_changed");
    assert_eq!(text(&got[1]), "announced");
    running.stop().await;
}

#[tokio::test]
async fn a_session_speaks_the_revision_its_initialize_asks_for() {
    let running = start(Server::new(Lab::new()), HttpConfig::default()).await;
    for (asked, rev) in [
        ("2025-03-26", Revision::V2025_03_26),
        ("2025-06-18", Revision::V2025_06_18),
        ("2025-11-25", Revision::V2025_11_25),
        // The newest handshake revision for a version the server does not know.
        ("2030-01-01", Revision::V2025_11_25),
    ] {
        let mut s = SseSession::open(running.addr, rev).await;
        let init = s.initialize(asked, json!({"sampling": {}})).await;
        assert_eq!(init["protocolVersion"], rev.as_str(), "asked {asked}");
        let tools = s.call(1, "tools/list", json!({})).await;
        assert!(tools["result"]["tools"].is_array());
    }
    running.stop().await;
}

#[tokio::test]
async fn bad_posts_are_refused_and_the_session_goes_on() {
    let cfg = HttpConfig::default().max_body_bytes(4096);
    let running = start(Server::new(Lab::new()), cfg).await;
    let addr = running.addr;
    let mut s = SseSession::open(addr, V24).await;
    s.initialize("2024-11-05", json!({})).await;

    let ping = br#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#.to_vec();
    let unknown = s
        .post_bytes("/messages?session_id=0123456789abcdef", ping.clone())
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let missing = s.post_bytes("/messages", ping).await;
    assert_eq!(missing.status, StatusCode::BAD_REQUEST);

    // Not JSON: 400 with the parse error, nothing on the stream.
    let checks = Checks::new(V24)
        .skip("JSONRPCMessage", "not JSON, on purpose")
        .skip("JSONRPCError", "no id can be read from this body");
    let req = sse::post(s.endpoint.as_str(), &[], &b"{nope"[..]);
    let bad = checks.send(addr, req).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad.json().await["error"]["code"], -32700);

    let big = json!({"jsonrpc": "2.0", "id": 10, "method": "tools/call",
        "params": {"name": "echo", "arguments": {"pad": "x".repeat(8192)}}});
    let req = sse::post(s.endpoint.as_str(), &[], big.to_string());
    let too_large = Checks::new(V24)
        .skip("JSONRPCError", "a transport refusal names no id")
        .send(addr, req)
        .await;
    assert_eq!(too_large.status, StatusCode::PAYLOAD_TOO_LARGE);

    let (get_messages, _) = get(addr, "/messages", &[]).await;
    assert_eq!(get_messages, StatusCode::METHOD_NOT_ALLOWED);
    let ping = br#"{"jsonrpc":"2.0","id":12,"method":"ping"}"#.to_vec();
    let post_stream = s.post_bytes("/sse", ping).await;
    assert_eq!(post_stream.status, StatusCode::METHOD_NOT_ALLOWED);

    // The session goes on: the next answer on the stream is the ping's.
    assert_eq!(s.call(11, "ping", json!({})).await["result"], json!({}));
    running.stop().await;
}

#[tokio::test]
async fn a_foreign_host_or_origin_is_refused() {
    let running = start(Server::new(Lab::new()), HttpConfig::default()).await;
    let addr = running.addr;
    let (status, _) = get(addr, "/sse", &[("host", "evil.example")]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = get(addr, "/sse", &[("origin", "http://evil.example")]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let s = SseSession::open(addr, V24).await;
    let req = sse::post(
        s.endpoint.as_str(),
        &[("origin", "http://evil.example")],
        &br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#[..],
    );
    let r = Checks::new(V24)
        .skip("JSONRPCError", "a transport refusal names no id")
        .send(addr, req)
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    running.stop().await;
}

#[tokio::test]
async fn only_the_principal_that_opened_a_session_may_post_to_it() {
    let svc = Server::new(Lab::new()).into_http(HttpConfig::default());
    let paths: Vec<String> = svc
        .sse_paths()
        .expect("served by default")
        .map(str::to_owned)
        .to_vec();
    let app = AxumApp::start_with(svc, &paths).await;
    let mut s = SseSession::open_with(app.addr, V24, &[("x-user", "alice")]).await;
    s.initialize("2024-11-05", json!({})).await;
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    for (user, status) in [
        ("mallory", StatusCode::NOT_FOUND),
        ("alice", StatusCode::ACCEPTED),
    ] {
        let req = sse::post(s.endpoint.as_str(), &[("x-user", user)], ping.to_string());
        let checks = match user {
            "alice" => s.checks.clone(),
            _ => Checks::new(V24).skip("JSONRPCError", "a transport refusal names no id"),
        };
        let r = checks.send(app.addr, req).await;
        assert_eq!(r.status, status, "{user}");
    }
    assert_eq!(s.message().await["result"], json!({}), "alice's ping");
    drop(s);
    app.stop().await;
}

/// One tool whose answer is `kib` KiB of text.
struct Blob;

impl Handler for Blob {
    fn info(&self) -> ServerInfo {
        ServerInfo::new("blob", "1.0.0").with_tools()
    }

    async fn list_tools(&self, _cx: &Cx, _cursor: Option<&Cursor>) -> Result<Page<Tool>, Error> {
        Ok(vec![Tool::new(
            "blob",
            "Answers with kib KiB of text",
            Tool::no_arguments(),
        )]
        .into())
    }

    async fn call_tool(
        &self,
        _cx: &Cx,
        _name: &str,
        args: &JsonObject,
    ) -> Result<CallToolResult, Error> {
        let kib = args.get("kib").and_then(Value::as_u64).unwrap_or(1) as usize;
        Ok(CallToolResult::text("x".repeat(kib * 1024)))
    }
}

#[tokio::test]
async fn a_stream_never_read_is_closed_at_its_deadline() {
    let stall = Duration::from_millis(300);
    let cfg = HttpConfig::default().sse_stall_timeout(stall);
    let running = start(Server::new(Blob), cfg).await;
    let addr = running.addr;

    // A client that reads the stream's head and endpoint event, then never again; its
    // receive buffer is small, so the server's writes back up soon.
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("buffer size");
    let mut raw = bounded("connect", socket.connect(addr))
        .await
        .expect("connect");
    let get = format!("GET /sse HTTP/1.1\r\nhost: {addr}\r\naccept: text/event-stream\r\n\r\n");
    raw.write_all(get.as_bytes()).await.expect("write");
    let mut head = Vec::new();
    let endpoint = loop {
        let mut chunk = [0u8; 512];
        let n = bounded("the endpoint event", raw.read(&mut chunk))
            .await
            .expect("read");
        assert!(n > 0, "the stream ended early");
        head.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&head);
        if let Some(at) = text.find("data: /messages?session_id=") {
            let rest = &text[at + "data: ".len()..];
            if let Some(end) = rest.find('\n') {
                break rest[..end].to_owned();
            }
        }
    };

    let checks = Checks::new(V24);
    let post = |body: Value| {
        let req = sse::post(endpoint.as_str(), &[], body.to_string());
        checks.send(addr, req)
    };
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2024-11-05", "capabilities": {},
        "clientInfo": {"name": "never-reads", "version": "1"}}});
    assert_eq!(post(init).await.status, StatusCode::ACCEPTED);
    // 256 KiB answers, one after another, until the server gives up on the stream.
    let started = std::time::Instant::now();
    let mut accepted = 0;
    let ended = loop {
        let call = json!({"jsonrpc": "2.0", "id": accepted + 1, "method": "tools/call",
            "params": {"name": "blob", "arguments": {"kib": 256}}});
        let r = bounded("a POST", post(call)).await;
        if r.status == StatusCode::NOT_FOUND {
            break true;
        }
        assert_eq!(r.status, StatusCode::ACCEPTED);
        accepted += 1;
        if accepted > 400 || started.elapsed() > WAIT {
            break false;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert!(ended, "the session outlived {accepted} unread answers");
    assert!(started.elapsed() >= stall, "ended before the deadline");

    // The server closed the connection: what it had sent is there, then the end.
    let mut rest = Vec::new();
    bounded("the connection's end", raw.read_to_end(&mut rest))
        .await
        .expect("read to the end");
    running.stop().await;
}

#[tokio::test]
async fn an_idle_session_ends_and_its_stream_closes() {
    let cfg = HttpConfig::default()
        .session_idle_timeout(Duration::from_millis(200))
        .keep_alive(Duration::from_millis(50));
    let running = start(Server::new(Lab::new()), cfg).await;
    let mut s = opened(running.addr).await;
    // Bounded in all: keep-alive comments come every 50 ms.
    let end = bounded("the idle session ends", s.event()).await;
    assert_eq!(end, None, "the stream ends");
    let late = s
        .post(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}))
        .await;
    assert_eq!(late.status, StatusCode::NOT_FOUND);
    running.stop().await;
}

#[tokio::test]
async fn a_client_that_leaves_ends_its_session() {
    let running = start(Server::new(Lab::new()), HttpConfig::default()).await;
    let s = opened(running.addr).await;
    let (endpoint, checks) = (s.endpoint.clone(), s.checks.clone());
    drop(s);
    let addr = running.addr;
    let gone = bounded("the session ends", async {
        loop {
            let req = sse::post(
                endpoint.as_str(),
                &[],
                &br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#[..],
            );
            let r = checks.send(addr, req).await;
            if r.status != StatusCode::ACCEPTED {
                return r.status;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert_eq!(gone, StatusCode::NOT_FOUND);
    running.stop().await;
}

#[tokio::test]
async fn a_session_runs_at_most_max_in_flight_requests() {
    let lab = Lab::new();
    let probe = lab.probe.clone();
    let running = start(Server::new(lab).max_in_flight(1), HttpConfig::default()).await;
    let mut s = opened(running.addr).await;
    let gate = tool_call(1, "gate");
    s.send(&gate).await;
    bounded("gate starts", probe.gate_started.notified()).await;
    let refused = s.call(2, "ping", json!({})).await;
    assert_eq!(refused["error"]["code"], -32603, "{refused}");
    probe.gate.notify_one();
    let (_, done) = until_answer(&mut s, 1).await;
    assert_eq!(text(&done), "opened");
    assert_eq!(s.call(3, "ping", json!({})).await["result"], json!({}));
    running.stop().await;
}

#[tokio::test]
async fn shutdown_answers_the_requests_in_flight_then_ends_the_stream() {
    let lab = Lab::new();
    let probe = lab.probe.clone();
    let running = start(Server::new(lab), HttpConfig::default()).await;
    let mut s = opened(running.addr).await;
    let gate = tool_call(1, "gate");
    s.send(&gate).await;
    bounded("gate starts", probe.gate_started.notified()).await;
    let stopping = tokio::spawn(running.stop());
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!stopping.is_finished(), "the drain waits for the call");
    probe.gate.notify_one();
    let (_, done) = until_answer(&mut s, 1).await;
    assert_eq!(text(&done), "opened");
    assert_eq!(s.event().await, None, "then the stream ends");
    bounded("the server stops", stopping)
        .await
        .expect("stopped");
}

#[tokio::test]
async fn a_2025_03_26_session_over_sse_takes_a_batch_and_answers_in_one_array() {
    let running = start(Server::new(Lab::new()), HttpConfig::default()).await;
    let mut s = SseSession::open(running.addr, Revision::V2025_03_26).await;
    s.initialize("2025-03-26", json!({})).await;
    let batch = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 9}},
        tool_call(2, "nope"),
    ]);
    s.send(&batch).await;
    let answer = s.message().await;
    let mut ids: Vec<i64> = answer
        .as_array()
        .expect("one array")
        .iter()
        .map(|m| m["id"].as_i64().unwrap())
        .collect();
    ids.sort();
    assert_eq!(ids, [1, 2], "{answer}");
    // A 2024-11-05 session refuses a batch, as every revision but 2025-03-26 does.
    let mut older = opened(running.addr).await;
    older.checks = older.checks.clone().skip(
        "JSONRPCMessage",
        "sends a batch, which 2024-11-05 does not have",
    );
    let r = older
        .post(&json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}]))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    running.stop().await;
}
