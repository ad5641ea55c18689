//! What one client can make a 2025-11-25 HTTP endpoint hold: sessions are counted per client
//! (its principal, else its address), a newcomer ends the least recently used quiet session
//! rather than being refused, and a refusal says whose limit it met. Driven through
//! `McpService::handle`, with the principal and the peer address as request extensions as
//! `serve` and an authenticating layer set them; every message is schema-checked.

use crate::support::http::{Checks, Probe, bounded};
use bytes::Bytes;
use http::{Method, Request, StatusCode};
use http_body_util::{BodyExt as _, Full};
use rondo_mcp::Principal;
use rondo_mcp::http::{HttpConfig, McpBody, McpService};
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use serde_json::{Value, json};
use std::net::SocketAddr;

/// Who sends a request: a principal, or only an address.
#[derive(Clone, Copy)]
enum Who {
    Principal(&'static str),
    Address(&'static str),
}

/// A request from `who` and the schema checks of its exchange (the body is checked here).
fn request(
    who: Who,
    method: Method,
    session: Option<&str>,
    body: Option<&Value>,
) -> (Request<Full<Bytes>>, Checks) {
    let checks = Checks::new(Revision::V2025_11_25);
    let bytes = body
        .map(|b| serde_json::to_vec(b).unwrap())
        .unwrap_or_default();
    if !bytes.is_empty() {
        checks.sent(&bytes);
    }
    let mut b = Request::builder()
        .method(method)
        .uri("/mcp")
        .header("host", "localhost")
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json");
    if let Some(sid) = session {
        b = b
            .header("mcp-session-id", sid)
            .header("mcp-protocol-version", "2025-11-25");
    }
    let mut req = b.body(Full::new(Bytes::from(bytes))).unwrap();
    match who {
        Who::Principal(id) => {
            req.extensions_mut().insert(Principal::new(id));
        }
        Who::Address(ip) => {
            let addr: SocketAddr = format!("{ip}:4000").parse().unwrap();
            req.extensions_mut().insert(addr);
        }
    }
    (req, checks)
}

async fn json_body(r: http::Response<McpBody>, checks: &Checks) -> Value {
    let bytes = r.into_body().collect().await.unwrap().to_bytes();
    checks.received(&bytes);
    serde_json::from_slice(&bytes).unwrap()
}

/// `initialize`: the status, the session id when one opened, and the answer.
async fn initialize(svc: &McpService<Probe>, who: Who) -> (StatusCode, Option<String>, Value) {
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "limits", "version": "1"}}});
    let (req, checks) = request(who, Method::POST, None, Some(&init));
    let r = svc.handle(req).await;
    let status = r.status();
    let sid = r
        .headers()
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_owned());
    (status, sid, json_body(r, &checks).await)
}

/// The status of a `ping` in `sid`.
async fn ping(svc: &McpService<Probe>, who: Who, sid: &str) -> StatusCode {
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
    let (req, _checks) = request(who, Method::POST, Some(sid), Some(&ping));
    svc.handle(req).await.status()
}

/// Opens `sid`'s GET stream and keeps it: the session is busy while it is held.
async fn hold_get(svc: &McpService<Probe>, who: Who, sid: &str) -> http::Response<McpBody> {
    let r = svc
        .handle(request(who, Method::GET, Some(sid), None).0)
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    r
}

fn service(cfg: HttpConfig) -> McpService<Probe> {
    Server::new(Probe::default()).into_http(cfg)
}

/// The attack of issue 14: one client opens many times the table's size in sessions; another
/// client still gets one (its least recently used quiet sessions made room), and the first
/// client's oldest sessions are gone.
#[tokio::test]
async fn one_client_cannot_fill_the_session_table() {
    let svc = service(HttpConfig::default().max_sessions(50));
    let greedy = Who::Address("10.0.0.1");
    let mut first = None;
    for _ in 0..300 {
        let (status, sid, _) = initialize(&svc, greedy).await;
        assert_eq!(status, StatusCode::OK);
        first.get_or_insert(sid.unwrap());
    }
    let other = Who::Address("10.0.0.2");
    let (status, sid, msg) = initialize(&svc, other).await;
    assert_eq!(status, StatusCode::OK, "{msg}");
    assert_eq!(ping(&svc, other, &sid.unwrap()).await, StatusCode::OK);
    assert_eq!(
        ping(&svc, greedy, &first.unwrap()).await,
        StatusCode::NOT_FOUND,
        "the oldest quiet session made room"
    );
}

/// At `max_sessions_per_client` a client's least recently used quiet session ends for its new
/// one; when all of them are busy it is refused with 429, naming its own limit, while other
/// clients (another address, a principal) are served.
#[tokio::test]
async fn sessions_are_capped_per_client() {
    let svc = service(HttpConfig::default().max_sessions_per_client(3));
    let a = Who::Address("10.0.0.1");
    let mut sids = Vec::new();
    for _ in 0..4 {
        let (status, sid, _) = initialize(&svc, a).await;
        assert_eq!(status, StatusCode::OK);
        sids.push(sid.unwrap());
    }
    assert_eq!(
        ping(&svc, a, &sids[0]).await,
        StatusCode::NOT_FOUND,
        "evicted"
    );
    let mut held = Vec::new();
    for sid in &sids[1..] {
        assert_eq!(ping(&svc, a, sid).await, StatusCode::OK);
        held.push(hold_get(&svc, a, sid).await);
    }
    let (status, sid, msg) = initialize(&svc, a).await;
    assert_eq!((status, sid), (StatusCode::TOO_MANY_REQUESTS, None));
    let why = msg["error"]["message"].as_str().unwrap();
    assert!(why.contains("This client already has 3 sessions"), "{why}");
    for other in [Who::Address("10.0.0.2"), Who::Principal("alice")] {
        assert_eq!(initialize(&svc, other).await.0, StatusCode::OK);
    }
    // One stream closes: that session is quiet again and makes room.
    drop(held.remove(0));
    bounded("a quiet session to make room", async {
        while initialize(&svc, a).await.0 != StatusCode::OK {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    })
    .await;
    assert_eq!(ping(&svc, a, &sids[1]).await, StatusCode::NOT_FOUND);
}

/// When every session of the table is busy, a newcomer is refused with 503 naming the
/// server's limit.
#[tokio::test]
async fn a_table_of_busy_sessions_refuses_with_503() {
    let svc = service(HttpConfig::default().max_sessions(2));
    let mut held = Vec::new();
    for who in [Who::Principal("a"), Who::Principal("b")] {
        let (status, sid, _) = initialize(&svc, who).await;
        assert_eq!(status, StatusCode::OK);
        held.push(hold_get(&svc, who, &sid.unwrap()).await);
    }
    let (status, _, msg) = initialize(&svc, Who::Principal("c")).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    let why = msg["error"]["message"].as_str().unwrap();
    assert!(why.contains("The server holds 2 sessions"), "{why}");
}
