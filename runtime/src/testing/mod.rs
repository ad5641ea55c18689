//! An in-memory MCP client for testing servers, for either revision.
//!
//! The client talks to the server through the same newline-delimited framing as stdio, over an
//! in-memory pipe, declares the capabilities a test chooses, answers elicitation, sampling and
//! roots questions from a [`Script`], drives the 2026-07-28 multi-round loop, and records every
//! message in both directions ([`TestClient::transcript`]).
//!
//! ```
//! # use rondo_mcp::prelude::*;
//! # struct Echo;
//! # impl Handler for Echo { fn info(&self) -> ServerInfo { ServerInfo::new("echo", "1").with_tools() } }
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! use rondo_mcp::testing::TestClient;
//! let client = TestClient::legacy(Server::new(Echo)).connect().await.unwrap();
//! let tools = client.list_tools().await.unwrap();
//! assert!(tools.is_empty());
//! # }
//! ```

mod script;
mod wire;

pub use script::{Reply, Script};

use crate::handler::Handler;
use crate::protocol::{
    self, ClientCapabilities, Error, Implementation, JsonObject, RequestId, Revision, Tool, meta,
};
use crate::server::Server;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::sync::oneshot;
use wire::{Shared, read_loop};

/// Which way a message went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Client to server.
    Sent,
    /// Server to client.
    Received,
}

/// One recorded message.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// Which way it went.
    pub direction: Direction,
    /// The message.
    pub message: Value,
}

/// Builds a [`TestClient`].
pub struct TestClientBuilder<H> {
    server: Server<H>,
    revision: Revision,
    capabilities: ClientCapabilities,
    script: Script,
    max_rounds: u32,
}

impl<H: Handler> TestClientBuilder<H> {
    /// The capabilities the client declares (default: none).
    pub fn capabilities(mut self, caps: ClientCapabilities) -> Self {
        self.capabilities = caps;
        self
    }
    /// The scripted answers.
    pub fn script(mut self, script: Script) -> Self {
        self.script = script;
        self
    }
    /// How many rounds the client follows before giving up (default 8).
    pub fn max_rounds(mut self, rounds: u32) -> Self {
        self.max_rounds = rounds;
        self
    }
    /// Starts the server on an in-memory pipe and, on 2025-11-25, performs the handshake.
    pub async fn connect(self) -> Result<TestClient, Error> {
        let (client_io, server_io) = tokio::io::duplex(1 << 16);
        let (server_r, server_w) = tokio::io::split(server_io);
        let server = self.server.clone();
        tokio::spawn(async move {
            if let Err(e) = server.serve_io(server_r, server_w).await {
                tracing::warn!(error = %e, "test server ended with an error");
            }
        });
        let (client_r, client_w) = tokio::io::split(client_io);
        let shared = Arc::new(Shared {
            writer: tokio::sync::Mutex::new(client_w),
            transcript: Mutex::new(Vec::new()),
            pending: Mutex::new(HashMap::new()),
            script: Mutex::new(self.script),
        });
        tokio::spawn(read_loop(BufReader::new(client_r), shared.clone()));
        let client = TestClient {
            shared,
            revision: self.revision,
            capabilities: self.capabilities,
            next_id: AtomicI64::new(1),
            max_rounds: self.max_rounds,
        };
        if !client.revision.is_modern() {
            let params = json!({
                "protocolVersion": client.revision.as_str(),
                "capabilities": client.capabilities,
                "clientInfo": Implementation::new("rondo-test-client", "0"),
            });
            client.raw_request("initialize", params).await?;
            client.notify("notifications/initialized", json!({})).await;
        }
        Ok(client)
    }
}

/// The end of a call that may have taken several rounds.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The last result: complete, or `input_required` when the client gave up.
    pub result: Value,
    /// How many requests the call took (1 when no input was asked).
    pub rounds: u32,
}

impl Call {
    /// The concatenated text of the result's text content blocks.
    pub fn text(&self) -> String {
        let blocks = self
            .result
            .get("content")
            .or_else(|| self.result.get("messages"));
        let mut out = String::new();
        for b in blocks.and_then(Value::as_array).into_iter().flatten() {
            let b = b.get("content").unwrap_or(b);
            if let Some(t) = b.get("text").and_then(Value::as_str) {
                out.push_str(t);
            }
        }
        out
    }
    /// `isError` of a tool result.
    pub fn is_error(&self) -> bool {
        self.result
            .get("isError")
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }
    /// Whether the call ended still waiting for input.
    pub fn input_required(&self) -> bool {
        self.result.get("resultType").and_then(Value::as_str) == Some("input_required")
    }
}

/// An in-memory client connected to a server. See the [module docs](self).
pub struct TestClient {
    shared: Arc<Shared>,
    revision: Revision,
    capabilities: ClientCapabilities,
    next_id: AtomicI64,
    max_rounds: u32,
}

impl TestClient {
    /// A 2026-07-28 client.
    pub fn modern<H: Handler>(server: Server<H>) -> TestClientBuilder<H> {
        Self::builder(server, Revision::V2026_07_28)
    }
    /// A 2025-11-25 client.
    pub fn legacy<H: Handler>(server: Server<H>) -> TestClientBuilder<H> {
        Self::builder(server, Revision::V2025_11_25)
    }
    /// A client of `revision`.
    pub fn builder<H: Handler>(server: Server<H>, revision: Revision) -> TestClientBuilder<H> {
        TestClientBuilder {
            server,
            revision,
            capabilities: ClientCapabilities::default(),
            script: Script::new(),
            max_rounds: 8,
        }
    }

    /// The revision this client speaks.
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// Every message sent and received so far.
    pub fn transcript(&self) -> Vec<Frame> {
        self.shared
            .transcript
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// The request metadata this client puts in every 2026-07-28 request.
    pub fn request_meta(&self) -> Value {
        json!({
            meta::PROTOCOL_VERSION: self.revision.as_str(),
            meta::CLIENT_CAPABILITIES: self.capabilities,
            meta::CLIENT_INFO: Implementation::new("rondo-test-client", "0"),
        })
    }

    /// Sends a request with exactly these params (no `_meta` added) and awaits the answer.
    pub async fn raw_request(&self, method: &str, params: Value) -> Result<Value, Error> {
        let id = RequestId::Number(self.next_id.fetch_add(1, Ordering::SeqCst));
        let (tx, rx) = oneshot::channel();
        self.shared
            .pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id.clone(), tx);
        self.shared
            .send(protocol::request(&id, method, Some(params)))
            .await;
        rx.await
            .unwrap_or_else(|_| Err(Error::internal("no answer")))
    }

    /// Sends a raw line, which need not be valid JSON; the server's answer shows up in the
    /// [transcript](TestClient::transcript).
    pub async fn raw_line(&self, line: &str) {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        let mut w = self.shared.writer.lock().await;
        let _ = w.write_all(&bytes).await;
        let _ = w.flush().await;
    }

    /// Sends a notification.
    pub async fn notify(&self, method: &str, params: Value) {
        self.shared
            .send(protocol::notification(method, params))
            .await;
    }

    /// Sends a request, adding this client's `_meta` on 2026-07-28 (keys already present win).
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, Error> {
        let params = if self.revision.is_modern() {
            with_meta(params, self.request_meta())
        } else {
            params
        };
        self.raw_request(method, params).await
    }

    /// `tools/list`.
    pub async fn list_tools(&self) -> Result<Vec<Tool>, Error> {
        let r = self.request("tools/list", json!({})).await?;
        serde_json::from_value(r["tools"].clone()).map_err(|e| Error::internal(e.to_string()))
    }

    /// `tools/call`, following 2026-07-28 rounds with scripted answers.
    pub async fn call_tool(&self, name: &str, arguments: Value) -> Result<Call, Error> {
        self.call(
            "tools/call",
            json!({ "name": name, "arguments": arguments }),
        )
        .await
    }

    /// `prompts/get`, following rounds.
    pub async fn get_prompt(&self, name: &str, arguments: Value) -> Result<Call, Error> {
        self.call(
            "prompts/get",
            json!({ "name": name, "arguments": arguments }),
        )
        .await
    }

    /// `resources/read`, following rounds.
    pub async fn read_resource(&self, uri: &str) -> Result<Call, Error> {
        self.call("resources/read", json!({ "uri": uri })).await
    }

    /// Sends a multi-round-capable request and follows `InputRequiredResult`s: each round
    /// answers the input requests from the script and retries with the echoed `requestState`.
    pub async fn call(&self, method: &str, params: Value) -> Result<Call, Error> {
        let mut rounds = 1;
        let mut result = self.request(method, params.clone()).await?;
        while result.get("resultType").and_then(Value::as_str) == Some("input_required")
            && rounds < self.max_rounds
        {
            let mut responses = JsonObject::new();
            for (key, req) in result
                .get("inputRequests")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                let m = req
                    .get("method")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                if let Some(Some(Ok(v))) =
                    self.shared.take_reply(m, Some(key)).map(|r| r.to_value())
                {
                    responses.insert(key.clone(), v);
                }
            }
            let state = result.get("requestState").cloned();
            if responses.is_empty() && state.is_none() {
                break;
            }
            if responses.is_empty()
                && result
                    .get("inputRequests")
                    .is_some_and(|r| r.as_object().is_some_and(|m| !m.is_empty()))
            {
                // Nothing to answer with: a real client would stop here too.
                break;
            }
            let mut retry = params.clone();
            if !responses.is_empty() {
                retry["inputResponses"] = Value::Object(responses);
            }
            if let Some(s) = state {
                retry["requestState"] = s;
            }
            result = self.request(method, retry).await?;
            rounds += 1;
        }
        Ok(Call { result, rounds })
    }
}

fn with_meta(params: Value, add: Value) -> Value {
    let mut p = match params {
        Value::Object(m) => m,
        _ => JsonObject::new(),
    };
    let meta = p.entry("_meta").or_insert_with(|| json!({}));
    if let (Some(m), Value::Object(add)) = (meta.as_object_mut(), add) {
        for (k, v) in add {
            m.entry(k).or_insert(v);
        }
    }
    Value::Object(p)
}
