//! The client both frameworks are driven with: raw newline-delimited JSON-RPC lines written by
//! hand, answers read line by line and checked. Nothing in it depends on which server is at the
//! other end, so its cost is the same for both.

use rondo_mcp::testing::Validator;
use serde_json::Value;
use tokio::io::{
    AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream, duplex,
};

/// The protocol revision a client speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rev {
    /// 2025-11-25: `initialize` once, then requests without `_meta`.
    Legacy,
    /// 2025-06-18 (the official SDKs' 1.x clients): as 2025-11-25, with another version.
    V2025_06_18,
    /// 2026-07-28: no handshake; every request names the version and the client's capabilities
    /// in `params._meta`.
    Modern,
}

impl Rev {
    /// Its version string.
    pub fn version(self) -> &'static str {
        match self {
            Rev::Legacy => "2025-11-25",
            Rev::V2025_06_18 => "2025-06-18",
            Rev::Modern => "2026-07-28",
        }
    }

    /// Whether it opens with `initialize`.
    pub fn handshake(self) -> bool {
        self != Rev::Modern
    }
}

/// Client capabilities with form elicitation, as JSON.
pub const FORM_CAPS: &str = r#"{"elicitation":{"form":{}}}"#;

/// The `initialize` request of `version`.
pub fn initialize(id: u64, version: &str, caps: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{caps},"clientInfo":{{"name":"rondo-bench","version":"0"}}}}}}"#
    )
}

/// The `notifications/initialized` notification (2025-11-25).
pub const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// A `tools/call` request; `extra` is appended to `params` verbatim (`,"requestState":..`).
pub fn call(rev: Rev, caps: &str, id: u64, tool: &str, arguments: &str, extra: &str) -> String {
    match rev {
        Rev::Legacy | Rev::V2025_06_18 => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}{extra}}}}}"#
        ),
        Rev::Modern => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{caps}}},"name":"{tool}","arguments":{arguments}{extra}}}}}"#
        ),
    }
}

/// The arguments of `add` for request `id`: the answer must be `3 * id`.
pub fn add_args(id: u64) -> String {
    format!(r#"{{"a":{id},"b":{}}}"#, 2 * id)
}

/// The text of a `tools/call` result's first content block.
pub fn result_text(msg: &Value) -> Option<&str> {
    msg.get("result")?
        .get("content")?
        .get(0)?
        .get("text")?
        .as_str()
}

/// One end of a newline-delimited JSON-RPC connection.
pub struct Wire<W, R> {
    to_server: W,
    from_server: BufReader<R>,
    line: Vec<u8>,
    /// When set, every line both ways is checked against the official schema (used once per
    /// flow before timing, never while timing).
    check: Option<Validator>,
}

/// A client end and the server's (reader, writer) over in-memory pipes.
pub fn pipes() -> (Wire<DuplexStream, DuplexStream>, DuplexStream, DuplexStream) {
    let (client_w, server_r) = duplex(1 << 20);
    let (server_w, client_r) = duplex(1 << 20);
    (Wire::new(client_w, client_r), server_r, server_w)
}

impl<W: AsyncWrite + Unpin, R: AsyncRead + Unpin> Wire<W, R> {
    /// A client writing to `to_server` and reading from `from_server`.
    pub fn new(to_server: W, from_server: R) -> Self {
        Wire {
            to_server,
            from_server: BufReader::with_capacity(1 << 16, from_server),
            line: Vec::with_capacity(4096),
            check: None,
        }
    }

    /// Checks every line both ways against the official schema of `check`'s revision.
    pub fn checked(mut self, check: Validator) -> Self {
        self.check = Some(check);
        self
    }

    /// How many lines were schema-checked so far.
    pub fn checked_lines(&self) -> usize {
        self.check.as_ref().map_or(0, Validator::checked)
    }

    /// The schema violations seen so far, one description each (empty when not checking).
    pub fn violations(&mut self) -> Vec<String> {
        self.check
            .as_mut()
            .map(|c| c.take_unreported().iter().map(|v| v.to_string()).collect())
            .unwrap_or_default()
    }

    /// Writes `lines` (each already ending with a newline) and flushes.
    pub async fn send(&mut self, lines: &[u8]) {
        if let Some(check) = &mut self.check {
            lines
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .for_each(|l| check.sent(l));
        }
        self.to_server
            .write_all(lines)
            .await
            .expect("the server reads");
        self.to_server.flush().await.expect("the server reads");
    }

    /// Writes one message and a newline.
    pub async fn send_line(&mut self, msg: &str) {
        let mut buf = Vec::with_capacity(msg.len() + 1);
        buf.extend_from_slice(msg.as_bytes());
        buf.push(b'\n');
        self.send(&buf).await;
    }

    /// The next message from the server, `None` at the end of its output.
    pub async fn recv(&mut self) -> Option<Value> {
        self.line.clear();
        let n = self
            .from_server
            .read_until(b'\n', &mut self.line)
            .await
            .expect("the server's output is readable");
        if n == 0 {
            return None;
        }
        if let Some(check) = &mut self.check {
            check.received(self.line.strip_suffix(b"\n").unwrap_or(&self.line));
        }
        Some(serde_json::from_slice(&self.line).expect("every line is JSON"))
    }

    /// Sends one request and returns the next message (the caller checks what it is).
    pub async fn request(&mut self, msg: &str) -> Value {
        self.send_line(msg).await;
        self.recv().await.expect("an answer")
    }

    /// The handshake at `version`: `initialize`, checked, then `notifications/initialized`.
    pub async fn initialize(&mut self, version: &str, caps: &str) {
        let answer = self.request(&initialize(0, version, caps)).await;
        assert_eq!(
            answer["result"]["protocolVersion"], version,
            "initialize answered {answer}"
        );
        self.send_line(INITIALIZED).await;
    }

    /// The writer and the buffered reader, to drive the two directions separately.
    pub fn into_parts(self) -> (W, BufReader<R>) {
        (self.to_server, self.from_server)
    }
}

/// The client of the benchmarks: a connection at one revision, with request ids.
pub struct Client<W, R> {
    /// The connection.
    pub wire: Wire<W, R>,
    /// The revision it speaks.
    pub rev: Rev,
    /// The capabilities it declares (every request at 2026-07-28, `initialize` at 2025-11-25).
    pub caps: &'static str,
    next_id: u64,
    batch: Vec<u8>,
}

impl<W: AsyncWrite + Unpin, R: AsyncRead + Unpin> Client<W, R> {
    /// Connects: at 2025-11-25 this runs the handshake; at 2026-07-28 there is none.
    pub async fn connect(mut wire: Wire<W, R>, rev: Rev, caps: &'static str) -> Self {
        if rev.handshake() {
            wire.initialize(rev.version(), caps).await;
        }
        Client {
            wire,
            rev,
            caps,
            next_id: 1,
            batch: Vec::with_capacity(64 * 256),
        }
    }

    /// A fresh request id.
    pub fn id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// A `tools/call` line at this client's revision.
    pub fn call_line(&self, id: u64, tool: &str, arguments: &str, extra: &str) -> String {
        call(self.rev, self.caps, id, tool, arguments, extra)
    }

    /// One `add` round trip, checked: the answer has the request's id and the right sum.
    pub async fn add(&mut self) {
        let id = self.id();
        let line = self.call_line(id, "add", &add_args(id), "");
        let answer = self.wire.request(&line).await;
        check_sum(&answer, id);
    }

    /// `n` `add` calls in flight at once: all written in one go, then all answers read and
    /// checked (in whatever order they come).
    pub async fn add_many(&mut self, n: usize) {
        let first = self.next_id;
        let mut batch = std::mem::take(&mut self.batch);
        batch.clear();
        for _ in 0..n {
            let id = self.id();
            batch.extend_from_slice(self.call_line(id, "add", &add_args(id), "").as_bytes());
            batch.push(b'\n');
        }
        self.wire.send(&batch).await;
        self.batch = batch;
        let mut seen = vec![false; n];
        for _ in 0..n {
            let answer = self.wire.recv().await.expect("an answer");
            let id = check_sum(&answer, u64::MAX);
            let slot = &mut seen[(id - first) as usize];
            assert!(!*slot, "answered twice: {answer}");
            *slot = true;
        }
    }

    /// 2025-11-25: a `tools/call` to `tool` that asks one form question: the server's
    /// `elicitation/create` is answered with `{"confirm": true}`, then the result is checked.
    pub async fn ask_legacy(&mut self, tool: &str) {
        let id = self.id();
        let line = self.call_line(id, tool, r#"{"path":"/tmp/report.txt"}"#, "");
        let ask = self.wire.request(&line).await;
        assert_eq!(ask["method"], "elicitation/create", "{ask}");
        let reply = format!(
            r#"{{"jsonrpc":"2.0","id":{},"result":{{"action":"accept","content":{{"confirm":true}}}}}}"#,
            ask["id"]
        );
        self.wire.send_line(&reply).await;
        let answer = self.wire.recv().await.expect("an answer");
        assert_eq!(answer["id"], id, "{answer}");
        assert_eq!(
            result_text(&answer),
            Some("deleted /tmp/report.txt"),
            "{answer}"
        );
    }

    /// 2026-07-28, first round: a `tools/call` to `tool` that is answered with an
    /// `InputRequiredResult`. Returns the retry's extra params (`inputResponses` answering every
    /// question with `{"confirm": true}`, and the `requestState`) and the `requestState` alone.
    pub async fn ask_first_round(&mut self, tool: &str) -> (String, String) {
        let id = self.id();
        let line = self.call_line(id, tool, r#"{"path":"/tmp/report.txt"}"#, "");
        let answer = self.wire.request(&line).await;
        assert_eq!(answer["id"], id, "{answer}");
        let result = &answer["result"];
        assert_eq!(result["resultType"], "input_required", "{answer}");
        let state = result["requestState"].as_str().expect("a requestState");
        let asked = result["inputRequests"].as_object().expect("inputRequests");
        let responses: Vec<String> = asked
            .keys()
            .map(|k| {
                format!(
                    r#"{}:{{"action":"accept","content":{{"confirm":true}}}}"#,
                    Value::from(k.as_str())
                )
            })
            .collect();
        let extra = format!(
            r#","inputResponses":{{{}}},"requestState":{}"#,
            responses.join(","),
            Value::from(state)
        );
        (extra, state.to_owned())
    }

    /// 2026-07-28, the retry: `tools/call` to `tool` with `extra` (from
    /// [`Client::ask_first_round`]), which must complete the call.
    pub async fn ask_retry(&mut self, tool: &str, extra: &str) {
        let id = self.id();
        let line = self.call_line(id, tool, r#"{"path":"/tmp/report.txt"}"#, extra);
        let answer = self.wire.request(&line).await;
        assert_eq!(answer["id"], id, "{answer}");
        assert_eq!(
            result_text(&answer),
            Some("deleted /tmp/report.txt"),
            "{answer}"
        );
    }
}

/// Checks that `answer` is the result of `add` for its id (which must be `id` unless `id` is
/// `u64::MAX`); returns the id.
pub fn check_sum(answer: &Value, id: u64) -> u64 {
    let got = answer["id"].as_u64().expect("a numeric id");
    assert!(id == u64::MAX || got == id, "{answer}");
    let want = (3 * got).to_string();
    assert_eq!(result_text(answer), Some(want.as_str()), "{answer}");
    got
}
