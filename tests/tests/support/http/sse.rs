//! A client of the HTTP+SSE transport (2024-11-05) over raw HTTP, for the `http::sse` and
//! `auth::sse` tests: the stream (GET), its named events, and POSTs to the endpoint it
//! announced. Every message sent or received passes the schema checks of the session's
//! revision.

use super::{Checks, Reply, bounded, exchange};
use bytes::Bytes;
use http::{Method, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use rondo_mcp::protocol::Revision;
use serde_json::{Value, json};
use std::net::SocketAddr;
use tokio::task::JoinHandle;

/// One SSE event: its name (`message` when the event names none) and its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub name: String,
    pub data: String,
}

/// An open HTTP+SSE session: its stream, and where its messages are POSTed.
pub struct SseSession {
    pub addr: SocketAddr,
    /// The URI the `endpoint` event named.
    pub endpoint: String,
    pub checks: Checks,
    /// Headers every POST of the session carries (those the stream was opened with).
    headers: Vec<(String, String)>,
    body: Incoming,
    buf: Vec<u8>,
    conn: JoinHandle<()>,
}

impl Drop for SseSession {
    fn drop(&mut self) {
        self.conn.abort();
    }
}

/// GETs `path` with `headers` (`Host` is the server's address unless given): the response's
/// status, and its body when it is a stream.
pub async fn get(
    addr: SocketAddr,
    path: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, Option<(Incoming, JoinHandle<()>)>) {
    let mut b = Request::builder().method(Method::GET).uri(path);
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        b = b.header("host", addr.to_string());
    }
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    let req = b.body(Full::new(Bytes::new())).expect("request");
    let (resp, conn) = exchange(addr, req).await;
    let status = resp.status();
    let is_stream = resp
        .headers()
        .get("content-type")
        .is_some_and(|v| v == "text/event-stream");
    if !is_stream {
        conn.abort();
        return (status, None);
    }
    (status, Some((resp.into_body(), conn)))
}

/// A POST of `body` to `uri` with `headers` (`Host` is added when it is sent).
pub fn post(uri: &str, headers: &[(&str, &str)], body: impl Into<Bytes>) -> Request<Full<Bytes>> {
    let mut b = Request::builder()
        .method(Method::POST)
        .uri(uri)
        .header("content-type", "application/json");
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    b.body(Full::new(body.into())).expect("request")
}

impl SseSession {
    /// Opens a stream at `/sse` and reads its `endpoint` event; the session's messages are
    /// checked against `rev`'s schema.
    pub async fn open(addr: SocketAddr, rev: Revision) -> SseSession {
        SseSession::open_with(addr, rev, &[]).await
    }

    /// [`SseSession::open`] with these request headers, which its POSTs carry too.
    pub async fn open_with(addr: SocketAddr, rev: Revision, headers: &[(&str, &str)]) -> Self {
        let (status, stream) = get(addr, "/sse", headers).await;
        assert_eq!(status, StatusCode::OK);
        let (body, conn) = stream.expect("an event stream");
        let mut s = SseSession {
            addr,
            endpoint: String::new(),
            checks: Checks::new(rev),
            headers: headers
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            body,
            buf: Vec::new(),
            conn,
        };
        let first = s.event().await.expect("the endpoint event");
        assert_eq!(first.name, "endpoint", "the first event names the endpoint");
        s.endpoint = first.data;
        s
    }

    /// The session id the endpoint names.
    pub fn id(&self) -> &str {
        self.endpoint
            .split_once("?session_id=")
            .map(|(_, id)| id)
            .expect("a session_id")
    }

    /// The next event, skipping comments; `None` when the stream ended.
    pub async fn event(&mut self) -> Option<Event> {
        loop {
            if let Some(end) = self.buf.windows(2).position(|w| w == b"\n\n") {
                let raw: Vec<u8> = self.buf.drain(..end + 2).collect();
                let raw = String::from_utf8(raw).expect("utf-8 event");
                let mut name = "message".to_owned();
                let mut data = Vec::new();
                for line in raw.lines() {
                    if let Some(n) = line.strip_prefix("event:") {
                        name = n.trim().to_owned();
                    } else if let Some(d) = line.strip_prefix("data:") {
                        data.push(d.trim_start().to_owned());
                    }
                }
                if data.is_empty() {
                    continue;
                }
                assert_eq!(data.len(), 1, "one data line per event: {raw}");
                let data = data.remove(0);
                return Some(Event { name, data });
            }
            let frame = bounded("next SSE frame", self.body.frame()).await?;
            if let Ok(data) = frame.expect("body").into_data() {
                self.buf.extend_from_slice(&data);
            }
        }
    }

    /// The next `message` event's JSON-RPC message, checked against the schema.
    pub async fn message(&mut self) -> Value {
        let e = self.event().await.expect("a message event");
        assert_eq!(e.name, "message", "{e:?}");
        self.checks.received(e.data.as_bytes());
        serde_json::from_str(&e.data).expect("JSON")
    }

    /// POSTs `body` to `uri` (checked against the schema when it is JSON).
    pub async fn post_bytes(&self, uri: &str, body: Vec<u8>) -> Reply {
        let headers: Vec<(&str, &str)> = self
            .headers
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        self.checks.send(self.addr, post(uri, &headers, body)).await
    }

    /// POSTs one message to the endpoint.
    pub async fn post(&self, msg: &Value) -> Reply {
        let body = serde_json::to_vec(msg).expect("json");
        self.post_bytes(&self.endpoint, body).await
    }

    /// POSTs a message that must be accepted (`202`).
    pub async fn send(&self, msg: &Value) {
        let r = self.post(msg).await;
        assert_eq!(r.status, StatusCode::ACCEPTED, "{msg}");
    }

    /// POSTs a request and reads the answer it gets on the stream (nothing else may come
    /// first).
    pub async fn call(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        let answer = self.message().await;
        assert_eq!(answer["id"], id, "{answer}");
        answer
    }

    /// `initialize` at `version` declaring `capabilities`, then `notifications/initialized`:
    /// the `initialize` result.
    pub async fn initialize(&mut self, version: &str, capabilities: Value) -> Value {
        let params = json!({"protocolVersion": version, "capabilities": capabilities,
            "clientInfo": {"name": "http-sse-tests", "version": "1.0.0"}});
        let answer = self.call(0, "initialize", params).await;
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        answer["result"].clone()
    }
}
