//! The checks before any JSON-RPC is read (DNS-rebinding `Host`/`Origin`, body limit and
//! deadline), and the endpoint mounted in an axum app behind an authentication layer that sets
//! the principal.

use crate::support::http::*;
use bytes::Bytes;
use http::{Method, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use rondo_mcp::http::{HttpConfig, McpService};
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;

async fn probe(cfg: HttpConfig) -> Running {
    start(Server::new(Probe::default()), cfg).await
}

fn discover() -> Value {
    modern(1, "server/discover", json!({}))
}

/// POSTs a modern `server/discover` with these `Host` / `Origin` headers.
async fn with_host(addr: SocketAddr, host: &str, origin: Option<&str>) -> Reply {
    post_modern(addr, &discover(), |h| {
        h.push(("host".into(), host.into()));
        if let Some(o) = origin {
            h.push(("origin".into(), o.into()));
        }
    })
    .await
}

/// Expects `status` with a JSON-RPC error body without id (nothing was read).
async fn refused(r: Reply, status: StatusCode) {
    assert_eq!(r.status, status);
    let e = r.json().await;
    assert!(e.get("id").is_none(), "{e}");
}

#[tokio::test]
async fn dns_rebinding_is_refused_and_localhost_served() {
    let s = probe(HttpConfig::default()).await;
    let own = s.addr.to_string();
    let own_origin = format!("http://{own}");
    refused(
        with_host(s.addr, "evil.example.com", Some("http://evil.example.com")).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    refused(
        with_host(s.addr, "evil.example.com", None).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    refused(
        with_host(s.addr, &own, Some("http://evil.example.com")).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    refused(
        with_host(s.addr, &own, Some("null")).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    // Text after an IPv6 literal is part of the host, not ignored.
    for (host, origin) in [
        ("[::1]evil.example", None),
        ("[::1]evil.example:80", None),
        (own.as_str(), Some("http://[::1]evil.example")),
        (own.as_str(), Some("http://[::1]evil.example:80")),
    ] {
        refused(with_host(s.addr, host, origin).await, StatusCode::FORBIDDEN).await;
    }
    for (host, origin) in [
        (own.as_str(), Some(own_origin.as_str())),
        ("localhost:1", None),
        ("[::1]", Some("http://localhost")),
    ] {
        assert_eq!(
            with_host(s.addr, host, origin).await.status,
            StatusCode::OK,
            "{host}"
        );
    }
    // The 2025-11-25 probe: initialize with a foreign Host is refused, with ours it opens a session.
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let h = [
        ACCEPT,
        ("mcp-protocol-version", "2025-11-25"),
        ("host", "evil.example.com"),
        ("origin", "http://evil.example.com"),
    ];
    assert_eq!(
        send(s.addr, request(Method::POST, &h, Some(&init)))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    let h = [
        ACCEPT,
        ("mcp-protocol-version", "2025-11-25"),
        ("origin", own_origin.as_str()),
    ];
    let r = send(s.addr, request(Method::POST, &h, Some(&init))).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.headers.contains_key("mcp-session-id"));
    s.stop().await;
}

#[tokio::test]
async fn allow_lists_extend_the_defaults() {
    let cfg = HttpConfig::default()
        .allow_host("mcp.example.com")
        .allow_origin("https://app.example.com");
    let s = probe(cfg).await;
    let ok = with_host(
        s.addr,
        "mcp.example.com:443",
        Some("https://app.example.com"),
    )
    .await;
    assert_eq!(ok.status, StatusCode::OK);
    let other = with_host(s.addr, "mcp.example.com", Some("https://other.example.com")).await;
    assert_eq!(other.status, StatusCode::FORBIDDEN);
    s.stop().await;
}

#[tokio::test]
async fn oversized_bodies_are_413() {
    let s = probe(HttpConfig::default().max_body_bytes(1024)).await;
    let mut big = discover();
    big["params"]["padding"] = json!("x".repeat(2048));
    refused(
        post_modern(s.addr, &big, |_| {}).await,
        StatusCode::PAYLOAD_TOO_LARGE,
    )
    .await;
    assert_eq!(
        post_modern(s.addr, &discover(), |_| {}).await.status,
        StatusCode::OK
    );
    s.stop().await;

    // Without Content-Length the limit holds while reading.
    let svc = Server::new(Probe::default()).into_http(HttpConfig::default().max_body_bytes(1024));
    let bytes = serde_json::to_vec(&big).unwrap();
    let req = Request::post("/mcp")
        .header("host", "localhost")
        .body(Full::new(Bytes::from(bytes)));
    let (status, e) = handled(&svc, req.unwrap()).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(e.get("id").is_none(), "{e}");
}

#[tokio::test]
async fn a_body_that_does_not_arrive_in_time_is_408_and_the_connection_closes() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let s = probe(HttpConfig::default().body_timeout(Duration::from_millis(200))).await;
    let mut stream = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    // The head promises 200 bytes; 10 come, then nothing.
    let head = "POST /mcp HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n\
                accept: application/json, text/event-stream\r\ncontent-length: 200\r\n\r\n";
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(br#"{"jsonrpc""#).await.unwrap();
    let mut answer = Vec::new();
    bounded(
        "the server answers and closes",
        stream.read_to_end(&mut answer),
    )
    .await
    .unwrap();
    let answer = String::from_utf8(answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, b)| b)
        .unwrap_or_default();
    let e: Value = serde_json::from_str(body).expect("a JSON-RPC error body");
    assert!(e.get("id").is_none(), "nothing was read: {e}");
    Checks::new(Revision::V2026_07_28).received(body.as_bytes());

    // A body that arrives in time is served.
    assert_eq!(
        post_modern(s.addr, &discover(), |_| {}).await.status,
        StatusCode::OK
    );
    s.stop().await;
}

/// Hands `req` to the service itself, with no socket (so no `Host` is added on the way), and
/// returns the status and the checked JSON answer.
async fn handled(svc: &McpService<Probe>, req: Request<Full<Bytes>>) -> (StatusCode, Value) {
    let checks = Checks::new(Revision::V2026_07_28);
    checks.sent(
        &req.body()
            .clone()
            .collect()
            .await
            .expect("a body")
            .to_bytes(),
    );
    let r = svc.handle(req).await;
    let status = r.status();
    let body = r.into_body().collect().await.expect("a body").to_bytes();
    checks.received(&body);
    (
        status,
        serde_json::from_slice(&body).expect("a JSON answer"),
    )
}

#[tokio::test]
async fn a_request_without_host_is_refused() {
    let svc = Server::new(Probe::default()).into_http(HttpConfig::default());
    let body = discover();
    let req = |host: Option<&str>| {
        let mut b = Request::post("/mcp").header("content-type", "application/json");
        for (k, v) in modern_headers(&body)
            .iter()
            .chain(host.map(|h| ("host".into(), h.into())).iter())
        {
            b = b.header(k, v);
        }
        let bytes = Bytes::from(serde_json::to_vec(&body).unwrap());
        b.body(Full::new(bytes)).unwrap()
    };
    assert_eq!(req(None).uri().authority(), None);
    let (status, e) = handled(&svc, req(None)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(e.get("id").is_none(), "nothing was read: {e}");
    let (status, d) = handled(&svc, req(Some("localhost"))).await;
    assert_eq!(status, StatusCode::OK, "{d}");
}

#[tokio::test]
async fn repeated_origin_headers_are_refused() {
    let s = probe(HttpConfig::default()).await;
    let own = format!("http://{}", s.addr);
    let origins = |n: usize| {
        let own = own.clone();
        move |h: &mut Vec<(String, String)>| {
            h.extend((0..n).map(|_| ("origin".to_owned(), own.clone())));
        }
    };
    refused(
        post_modern(s.addr, &discover(), origins(2)).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    let one = post_modern(s.addr, &discover(), origins(1)).await;
    assert_eq!(one.status, StatusCode::OK);
    s.stop().await;
}

#[tokio::test]
async fn malformed_json_is_a_400_parse_error() {
    let s = probe(HttpConfig::default()).await;
    let req = Request::post("/mcp")
        .header("content-type", "application/json")
        .header("accept", ACCEPT.1)
        .body(Full::new(Bytes::from_static(b"{not json")))
        .unwrap();
    let sloppy =
        Checks::new(Revision::V2026_07_28).skip("JSONRPCMessage", "sends a body that is not JSON");
    let r = sloppy.send(s.addr, req).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(r.json().await["error"]["code"], -32700);
    s.stop().await;
}

#[tokio::test]
async fn mounts_in_axum_and_takes_the_principal_from_a_layer() {
    let axum_app =
        AxumApp::start(Server::new(Probe::default()).into_http(HttpConfig::default())).await;
    let addr = axum_app.addr;
    let body = modern(2, "tools/call", json!({"name": "whoami"}));
    let r = post_modern(addr, &body, |_| {}).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(text(&r.json().await), "alice");
    // A 2025-11-25 session belongs to the principal that opened it.
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let r = send(addr, request(Method::POST, &[ACCEPT], Some(&init))).await;
    let sid = r.headers["mcp-session-id"].to_str().unwrap().to_owned();
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    for (user, status) in [("bob", StatusCode::NOT_FOUND), ("alice", StatusCode::OK)] {
        let h = [ACCEPT, ("mcp-session-id", sid.as_str()), ("x-user", user)];
        let r = send(addr, request(Method::POST, &h, Some(&list))).await;
        assert_eq!(r.status, status, "{user}");
    }
    let h = [("mcp-session-id", sid.as_str()), ("x-user", "bob")];
    assert_eq!(
        send(addr, request(Method::DELETE, &h, None)).await.status,
        StatusCode::NOT_FOUND
    );
    axum_app.stop().await;
}

#[tokio::test]
async fn a_get_stream_belongs_to_the_principal_of_its_session() {
    let axum_app =
        AxumApp::start(Server::new(Probe::default()).into_http(HttpConfig::default())).await;
    let addr = axum_app.addr;
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let r = send(addr, request(Method::POST, &[ACCEPT], Some(&init))).await;
    let sid = r.headers["mcp-session-id"].to_str().unwrap().to_owned();
    let get = |user: &'static str| {
        let h = [ACCEPT, ("mcp-session-id", sid.as_str()), ("x-user", user)];
        send(addr, request(Method::GET, &h, None))
    };
    let bob = get("bob").await;
    assert_eq!(bob.status, StatusCode::NOT_FOUND);
    assert!(bob.json().await["error"].is_object());
    let alice = get("alice").await;
    assert_eq!(alice.status, StatusCode::OK);
    assert_eq!(alice.content_type(), "text/event-stream");
    drop(alice);
    axum_app.stop().await;
}

#[tokio::test]
async fn request_state_is_bound_to_the_principal_it_was_issued_to() {
    let axum_app =
        AxumApp::start(Server::new(Probe::default()).into_http(HttpConfig::default())).await;
    let addr = axum_app.addr;
    let first = modern(1, "tools/call", json!({"name": "greet"}));
    let r = post_modern(addr, &first, |_| {}).await;
    let irr = r.json().await;
    let state = irr["result"]["requestState"].clone();
    assert!(state.is_string(), "{irr}");
    let retry = modern(
        2,
        "tools/call",
        json!({"name": "greet", "requestState": state,
            "inputResponses": {"user_name": {"action": "accept", "content": {"name": "Alice"}}}}),
    );
    // Bob replays Alice's state: one frozen -32602, nothing about why.
    let r = post_modern(addr, &retry, |h| h.push(("x-user".into(), "bob".into()))).await;
    let refused = r.json().await;
    assert_eq!(refused["error"]["code"], -32602);
    assert_eq!(
        refused["error"]["message"],
        "Invalid or expired requestState"
    );
    // Alice herself completes.
    let r = post_modern(addr, &retry, |_| {}).await;
    assert_eq!(text(&r.json().await), "Hello, Alice!");
    axum_app.stop().await;
}
