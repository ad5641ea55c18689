//! Shared by the tests over HTTP (`http/`, `auth/` and the HTTP cases of other areas): a probe
//! server, the real HTTP server on 127.0.0.1:0, a minimal HTTP/1.1 client (one connection per
//! request, so closing a stream is closing a socket), an SSE reader, and schema validation of
//! every message sent and received (the runtime's `Validator`, one per conversation: a
//! 2025-11-25 session, or one 2026-07-28 POST).

#![allow(dead_code)]

mod probe;
mod session;
pub mod sse;
#[allow(unused_imports)] // not every test file uses the probe server or a session
pub use probe::Probe;
#[allow(unused_imports)]
pub use session::Session;

use bytes::Bytes;
use http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use rondo_mcp::http::{HttpConfig, McpService, serve_listener};
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::Validator;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// Every wait in these tests is bounded by this.
pub const WAIT: Duration = Duration::from_secs(10);

pub async fn bounded<F: Future>(what: &str, f: F) -> F::Output {
    tokio::time::timeout(WAIT, f)
        .await
        .unwrap_or_else(|_| panic!("timed out: {what}"))
}

/// A running server; dropping it does not stop it, [`Running::stop`] does (and drains).
pub struct Running {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Running {
    pub async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        bounded("server drains", &mut self.task)
            .await
            .expect("server task")
            .expect("server ran");
    }
}

pub async fn start<H: Handler>(server: Server<H>, cfg: HttpConfig) -> Running {
    start_service(server.into_http(cfg)).await
}

pub async fn start_service<H: Handler>(svc: McpService<H>) -> Running {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (tx, rx) = oneshot::channel::<()>();
    let task = tokio::spawn(serve_listener(svc, listener, async {
        let _ = rx.await;
    }));
    Running {
        addr,
        stop: Some(tx),
        task,
    }
}

/// The schema checks of one conversation: every message sent or received in it is checked
/// against the official schema of its revision when it passes, and a violation fails the test
/// there.
#[derive(Clone)]
pub struct Checks(Arc<Mutex<Validator>>);

impl Checks {
    pub fn new(rev: Revision) -> Checks {
        Checks(Arc::new(Mutex::new(Validator::new(rev))))
    }

    /// Skips the checks against `def`, for a test that breaks it on purpose.
    pub fn skip(self, def: &str, reason: &str) -> Checks {
        {
            let mut v = self.0.lock().unwrap();
            let rev = v.revision();
            let old = std::mem::replace(&mut *v, Validator::new(rev));
            *v = old.skip_validation_of(def, reason);
        }
        self
    }

    /// The conversation a request without one starts: 2025-11-25 when its headers or body say
    /// so (version header, `initialize`, a session id), else 2026-07-28.
    fn of(headers: &HeaderMap, body: &[u8]) -> Checks {
        let msg: Value = serde_json::from_slice(body).unwrap_or_default();
        let rev = match headers.get("mcp-protocol-version").map(|v| v.as_bytes()) {
            Some(b"2025-11-25") => Revision::V2025_11_25,
            Some(b"2026-07-28") => Revision::V2026_07_28,
            _ if msg
                .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
                .is_some() =>
            {
                Revision::V2026_07_28
            }
            _ if msg["method"] == "initialize" || headers.contains_key("mcp-session-id") => {
                Revision::V2025_11_25
            }
            _ => Revision::V2026_07_28,
        };
        Checks::new(rev)
    }

    /// Checks a body the client sends (a violation fails the test here).
    pub fn sent(&self, bytes: &[u8]) {
        let mut v = self.0.lock().unwrap();
        v.sent(bytes);
        v.assert_valid();
    }

    /// Checks a body or event the client receives (a violation fails the test here).
    pub fn received(&self, bytes: &[u8]) {
        let mut v = self.0.lock().unwrap();
        v.received(bytes);
        v.assert_valid();
    }

    /// Sends `req` on a fresh connection in this conversation (`Host` defaults to the
    /// server's address). A JSON answer is read (and checked) at once; an SSE answer event by
    /// event, as the test reads it.
    pub async fn send(&self, addr: SocketAddr, req: Request<Full<Bytes>>) -> Reply {
        let (mut parts, body) = req.into_parts();
        // Not MCP messages, so not checked against its schema (the tests assert them): the
        // OAuth documents under `/.well-known/` and the OAuth error bodies of challenges.
        let well_known = parts.uri.path().starts_with("/.well-known/");
        let body = body.collect().await.expect("a full body").to_bytes();
        if !body.is_empty() {
            self.sent(&body);
        }
        if !parts.headers.contains_key("host") {
            parts
                .headers
                .insert("host", addr.to_string().parse().expect("host"));
        }
        let req = Request::from_parts(parts, Full::new(body));
        let (resp, conn) = exchange(addr, req).await;
        let (parts, body) = resp.into_parts();
        let mut reply = Reply {
            status: parts.status,
            headers: parts.headers,
            body,
            conn,
            buf: Vec::new(),
            checks: self.clone(),
        };
        let oauth = well_known || reply.headers.contains_key("www-authenticate");
        if reply.content_type() != "text/event-stream" {
            reply.buf = reply.rest().await;
            if !reply.buf.is_empty() && !oauth {
                self.received(&reply.buf);
            }
        }
        reply
    }

    /// POSTs a 2026-07-28 `body` with its headers, changed by `edit`, in this conversation.
    pub async fn post_modern(
        &self,
        addr: SocketAddr,
        body: &Value,
        edit: impl FnOnce(&mut Vec<(String, String)>),
    ) -> Reply {
        let mut h = modern_headers(body);
        edit(&mut h);
        let h: Vec<(&str, &str)> = h.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        self.send(addr, request(Method::POST, &h, Some(body))).await
    }
}

/// Sends `req` on a fresh connection to `addr`: the response, its body not read yet, and the
/// task driving the connection (abort it to close the connection).
pub async fn exchange(
    addr: SocketAddr,
    req: Request<Full<Bytes>>,
) -> (http::Response<Incoming>, JoinHandle<()>) {
    let stream = bounded("connect", TcpStream::connect(addr))
        .await
        .expect("connect");
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    let conn = tokio::spawn(async move {
        let _ = conn.await;
    });
    let resp = bounded("response head", sender.send_request(req))
        .await
        .expect("response");
    (resp, conn)
}

/// One response; its connection closes when this is dropped.
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    body: Incoming,
    conn: JoinHandle<()>,
    buf: Vec<u8>,
    checks: Checks,
}

impl Drop for Reply {
    fn drop(&mut self) {
        self.conn.abort();
    }
}

impl Reply {
    pub fn content_type(&self) -> &str {
        self.headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    /// The rest of the body, read to its end.
    async fn rest(&mut self) -> Vec<u8> {
        let mut out = std::mem::take(&mut self.buf);
        while let Some(frame) = bounded("body frame", self.body.frame()).await {
            if let Ok(data) = frame.expect("body").into_data() {
                out.extend_from_slice(&data);
            }
        }
        out
    }

    pub async fn text(mut self) -> String {
        String::from_utf8(self.rest().await).expect("utf-8 body")
    }

    pub async fn json(self) -> Value {
        assert!(
            self.content_type().starts_with("application/json"),
            "{}",
            self.content_type()
        );
        let text = self.text().await;
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    /// The next SSE event's JSON (`data:` line), skipping comments; `None` at the end.
    pub async fn event(&mut self) -> Option<Value> {
        loop {
            if let Some(end) = find(&self.buf, b"\n\n") {
                let raw: Vec<u8> = self.buf.drain(..end + 2).collect();
                let raw = String::from_utf8(raw).expect("utf-8 event");
                let data: Vec<&str> = raw
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .collect();
                assert!(data.len() <= 1, "one data line per message: {raw}");
                if let Some(d) = data.first() {
                    self.checks.received(d.trim().as_bytes());
                    return Some(serde_json::from_str(d.trim()).expect("event is JSON"));
                }
                continue;
            }
            let frame = bounded("next SSE frame", self.body.frame()).await?;
            if let Ok(data) = frame.expect("body").into_data() {
                self.buf.extend_from_slice(&data);
            }
        }
    }

    /// Every remaining event until the stream ends.
    pub async fn events(mut self) -> Vec<Value> {
        assert_eq!(self.content_type(), "text/event-stream");
        let mut v = Vec::new();
        while let Some(e) = self.event().await {
            v.push(e);
        }
        v
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Sends `req` on a fresh connection, in a conversation of its own (see [`Checks::send`]).
pub async fn send(addr: SocketAddr, req: Request<Full<Bytes>>) -> Reply {
    let checks = {
        let body = req.body().clone().collect().await.expect("a full body");
        Checks::of(req.headers(), &body.to_bytes())
    };
    checks.send(addr, req).await
}

/// A request with headers and an optional JSON body.
pub fn request(
    method: Method,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> Request<Full<Bytes>> {
    let mut b = Request::builder().method(method).uri("/mcp");
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    let bytes = body
        .map(|v| serde_json::to_vec(v).expect("json"))
        .unwrap_or_default();
    if body.is_some() {
        b = b.header("content-type", "application/json");
    }
    b.body(Full::new(Bytes::from(bytes))).expect("request")
}

pub const ACCEPT: (&str, &str) = ("accept", "application/json, text/event-stream");
pub const V26: &str = "2026-07-28";

/// The `_meta` every 2026-07-28 request carries.
pub fn meta(caps: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": V26,
        "io.modelcontextprotocol/clientCapabilities": caps,
        "io.modelcontextprotocol/clientInfo": {"name": "http-tests", "version": "1.0.0"},
    })
}

/// A 2026-07-28 request body: `params` plus the standard `_meta`.
pub fn modern(id: i64, method: &str, mut params: Value) -> Value {
    params["_meta"] = meta(json!({"elicitation": {}}));
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// The headers a conforming 2026-07-28 client sends for `body`.
pub fn modern_headers(body: &Value) -> Vec<(String, String)> {
    let method = body["method"].as_str().unwrap_or_default().to_owned();
    let mut h = vec![
        ("accept".to_owned(), ACCEPT.1.to_owned()),
        ("mcp-protocol-version".to_owned(), V26.to_owned()),
        ("mcp-method".to_owned(), method.clone()),
    ];
    let name = match method.as_str() {
        "tools/call" | "prompts/get" => body["params"]["name"].as_str(),
        "resources/read" => body["params"]["uri"].as_str(),
        "tasks/get" | "tasks/update" | "tasks/cancel" => body["params"]["taskId"].as_str(),
        _ => None,
    };
    if let Some(n) = name {
        h.push(("mcp-name".to_owned(), n.to_owned()));
    }
    h
}

/// POSTs a 2026-07-28 `body` with its headers, changed by `edit`, in a conversation of its own.
pub async fn post_modern(
    addr: SocketAddr,
    body: &Value,
    edit: impl FnOnce(&mut Vec<(String, String)>),
) -> Reply {
    Checks::new(Revision::V2026_07_28)
        .post_modern(addr, body, edit)
        .await
}

/// The text of a `CallToolResult` response's first content item.
pub fn text(msg: &Value) -> &str {
    msg["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text: {msg}"))
}

/// A stand-in for an authentication layer: the principal named by `x-user` (default alice).
async fn authenticate(mut req: axum::extract::Request) -> axum::extract::Request {
    let user = req
        .headers()
        .get("x-user")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("alice")
        .to_owned();
    req.extensions_mut().insert(Principal::new(user));
    req
}

/// A service mounted at `/mcp` in an axum app behind [`authenticate`].
pub struct AxumApp {
    pub addr: SocketAddr,
    stop: tokio::sync::oneshot::Sender<()>,
    server: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl AxumApp {
    pub async fn start<H: Handler>(svc: McpService<H>) -> AxumApp {
        AxumApp::start_with(svc, &[]).await
    }

    /// The service at `/mcp` and at each of `paths` too.
    pub async fn start_with<H: Handler>(svc: McpService<H>, paths: &[String]) -> AxumApp {
        let mut app = axum::Router::new().route_service("/mcp", svc.clone());
        for p in paths {
            app = app.route_service(p, svc.clone());
        }
        let app = app.layer(axum::middleware::map_request(authenticate));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(async move {
            axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = stopped.await;
                })
                .await
        });
        AxumApp { addr, stop, server }
    }

    pub async fn stop(self) {
        let _ = self.stop.send(());
        bounded("axum stops", self.server).await.unwrap().unwrap();
    }
}
