//! Shared by the `http_*` tests: a probe server, the real HTTP server on 127.0.0.1:0, a
//! minimal HTTP/1.1 client (one connection per request, so closing a stream is closing a
//! socket), an SSE reader, and schema validation of every message the server emits.

#![allow(dead_code)]

mod probe;
#[allow(unused_imports)] // not every test file uses the probe server
pub use probe::Probe;

use bytes::Bytes;
use http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use rondo_mcp::http::{HttpConfig, McpService, serve_listener};
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use serde_json::{Value, json};
use std::net::SocketAddr;
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

/// One response; its connection closes when this is dropped.
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    body: Incoming,
    conn: JoinHandle<()>,
    buf: Vec<u8>,
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

    pub async fn text(mut self) -> String {
        let mut out = std::mem::take(&mut self.buf);
        while let Some(frame) = bounded("body frame", self.body.frame()).await {
            if let Ok(data) = frame.expect("body").into_data() {
                out.extend_from_slice(&data);
            }
        }
        String::from_utf8(out).expect("utf-8 body")
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

/// Sends `req` on a fresh connection (`Host` defaults to the server's address).
pub async fn send(addr: SocketAddr, mut req: Request<Full<Bytes>>) -> Reply {
    if !req.headers().contains_key("host") {
        req.headers_mut()
            .insert("host", addr.to_string().parse().expect("host"));
    }
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
    let (parts, body) = resp.into_parts();
    Reply {
        status: parts.status,
        headers: parts.headers,
        body,
        conn,
        buf: Vec::new(),
    }
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
        _ => None,
    };
    if let Some(n) = name {
        h.push(("mcp-name".to_owned(), n.to_owned()));
    }
    h
}

/// POSTs a 2026-07-28 `body` with its headers, changed by `edit`.
pub async fn post_modern(
    addr: SocketAddr,
    body: &Value,
    edit: impl FnOnce(&mut Vec<(String, String)>),
) -> Reply {
    let mut h = modern_headers(body);
    edit(&mut h);
    let h: Vec<(&str, &str)> = h.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    send(addr, request(Method::POST, &h, Some(body))).await
}

/// Validates one server-to-client message against the official schema of `rev`: the
/// JSON-RPC envelope and, where known, the type its method, error code or request implies.
pub fn check(rev: Revision, msg: &Value, request_method: Option<&str>) {
    let ok = |def: &str, v: &Value| {
        rondo_tests::validate_def(rev, def, v).unwrap_or_else(|e| panic!("{e}"));
    };
    if let Some(code) = msg.pointer("/error/code").and_then(Value::as_i64) {
        let def = match (rev, code) {
            (Revision::V2026_07_28, -32020) => "HeaderMismatchError",
            (Revision::V2026_07_28, -32021) => "MissingRequiredClientCapabilityError",
            (Revision::V2026_07_28, -32022) => "UnsupportedProtocolVersionError",
            _ => "JSONRPCErrorResponse",
        };
        ok("JSONRPCErrorResponse", msg);
        return ok(def, msg);
    }
    if let Some(method) = msg.get("method").and_then(Value::as_str) {
        let def = match method {
            "notifications/progress" => "ProgressNotification",
            "notifications/message" => "LoggingMessageNotification",
            "notifications/tools/list_changed" => "ToolListChangedNotification",
            "notifications/prompts/list_changed" => "PromptListChangedNotification",
            "notifications/resources/list_changed" => "ResourceListChangedNotification",
            "notifications/resources/updated" => "ResourceUpdatedNotification",
            "notifications/subscriptions/acknowledged" => "SubscriptionsAcknowledgedNotification",
            "elicitation/create" => "ElicitRequest",
            "sampling/createMessage" => "CreateMessageRequest",
            "roots/list" => "ListRootsRequest",
            other => panic!("unexpected server message {other}"),
        };
        let envelope = if msg.get("id").is_some() {
            "JSONRPCRequest"
        } else {
            "JSONRPCNotification"
        };
        ok(envelope, msg);
        return ok(def, msg);
    }
    ok("JSONRPCResultResponse", msg);
    let result = &msg["result"];
    let def = match request_method {
        _ if result["resultType"] == "input_required" => "InputRequiredResult",
        Some("initialize") => "InitializeResult",
        Some("server/discover") => "DiscoverResult",
        Some("tools/list") => "ListToolsResult",
        Some("tools/call") => "CallToolResult",
        Some("subscriptions/listen") => "SubscriptionsListenResult",
        _ => return,
    };
    ok(def, result);
}

/// The text of a `CallToolResult` response's first content item.
pub fn text(msg: &Value) -> &str {
    msg["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text: {msg}"))
}
