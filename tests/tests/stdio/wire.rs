//! A client end of `Server::serve_io` over in-memory pipes (`Wire`), every line checked against
//! its revision's official schema both ways, and the messages the stdio tests send.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::Validator;
use serde_json::{Value, json};
use std::io;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::task::JoinHandle;

/// Bound on every wait of the stdio tests.
pub(super) const BOUND: Duration = Duration::from_secs(5);

/// A client end of `serve_io`: writes lines, reads lines, and checks every line both ways
/// against the official schema of `rev` as it passes (a violation fails the test there).
pub(super) struct Wire {
    to_server: Option<DuplexStream>,
    pub(super) from_server: BufReader<DuplexStream>,
    check: Validator,
    /// Bytes written since the last newline (a line may be written in pieces).
    partial: Vec<u8>,
    pub(super) served: Option<JoinHandle<io::Result<()>>>,
}

impl Wire {
    pub(super) fn start<H: Handler>(server: Server<H>, rev: Revision) -> Wire {
        Wire::checked(server, Validator::new(rev))
    }

    pub(super) fn checked<H: Handler>(server: Server<H>, check: Validator) -> Wire {
        let (client_w, server_r) = tokio::io::duplex(1 << 20);
        let (server_w, client_r) = tokio::io::duplex(1 << 20);
        let served = tokio::spawn(server.serve_io(server_r, server_w));
        Wire {
            to_server: Some(client_w),
            from_server: BufReader::new(client_r),
            check,
            partial: Vec::new(),
            served: Some(served),
        }
    }

    pub(super) async fn send(&mut self, msg: Value) {
        let mut line = msg.to_string().into_bytes();
        line.push(b'\n');
        self.send_raw(&line).await;
    }

    /// Writes bytes as they are; each line they complete is checked.
    pub(super) async fn send_raw(&mut self, bytes: &[u8]) {
        self.partial.extend_from_slice(bytes);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            self.check.sent(&line[..end]);
        }
        self.check.assert_valid();
        let w = self.to_server.as_mut().expect("input still open");
        w.write_all(bytes).await.expect("server reads");
        w.flush().await.expect("server reads");
    }

    /// The next message from the server, `None` at end of output.
    pub(super) async fn recv(&mut self) -> Option<Value> {
        let mut line = Vec::new();
        let n = tokio::time::timeout(BOUND, self.from_server.read_until(b'\n', &mut line))
            .await
            .expect("the server answers in time")
            .expect("readable");
        if n == 0 {
            return None;
        }
        assert_eq!(
            line.pop(),
            Some(b'\n'),
            "every output line ends with a newline"
        );
        self.check.received(&line);
        self.check.assert_valid();
        Some(serde_json::from_slice(&line).expect("checked: JSON"))
    }

    /// Ends the server's input.
    pub(super) fn close_input(&mut self) {
        drop(self.to_server.take());
    }

    /// Closes the server's input and waits (bounded) for `serve_io` to return.
    pub(super) async fn close_and_join(&mut self, bound: Duration) -> io::Result<()> {
        self.close_input();
        let served = self.served.take().expect("joined once");
        tokio::time::timeout(bound, served)
            .await
            .expect("serve_io returns promptly after end of input")
            .expect("serve_io does not panic")
    }
}

pub(super) fn modern_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

pub(super) fn call(id: Value, tool: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"_meta": modern_meta(), "name": tool, "arguments": {}}})
}

pub(super) fn list(id: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": {"_meta": modern_meta()}})
}

pub(super) fn cancelled(id: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": id, "reason": "user changed their mind"}})
}

pub(super) async fn bounded<F: std::future::Future>(what: &str, f: F) -> F::Output {
    tokio::time::timeout(BOUND, f)
        .await
        .unwrap_or_else(|_| panic!("timed out waiting for {what}"))
}

/// Opens a 2025-11-25 session that declares elicitation.
pub(super) async fn initialize(w: &mut Wire) {
    w.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "wire", "version": "0"}}}),
    )
    .await;
    assert_eq!(w.recv().await.unwrap()["id"], 1);
    w.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
}

/// A 2025-11-25 `tools/call` of the argument-less tool `name`.
pub(super) fn legacy_call(id: i64, tool: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": {}}})
}
