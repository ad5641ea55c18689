//! What a server publishes to clients, read over its stdio (or an in-memory pipe): every schema in its
//! `tools/list` (each tool's `inputSchema` and `outputSchema`) and in the requests its tools send
//! (a form's `requestedSchema`, the tools of a sampling request), at both revisions. The examples'
//! `tests/schema_formats.rs` hold each one to [`assert_standard_formats`]: a `format` JSON Schema
//! 2020-12 does not define (schemars writes `uint32`, `int64`, `double` for Rust numbers) makes
//! clients' validators warn (`unknown format "uint32" ignored in schema`) or refuse the schema.

use crate::validate_transcript;
use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::{Direction, Frame};
use rondo_mcp::{Handler, Server};
use serde_json::{Value, json};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};

/// The formats JSON Schema 2020-12 defines (Validation, §7.3), the only ones a published schema
/// may carry.
pub const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// The keys under which a message carries a JSON Schema.
const SCHEMA_KEYS: &[&str] = &["inputSchema", "outputSchema", "requestedSchema"];

/// Keywords whose values are instances, not schemas: a `format` inside them is data.
const INSTANCE_KEYS: &[&str] = &["default", "const", "enum", "examples"];

/// Bound on every wait for the process.
const BOUND: Duration = Duration::from_secs(10);

/// One `format` found in a published schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Format {
    /// Where: the revision, the message and the JSON path to the keyword.
    pub at: String,
    /// The keyword's value.
    pub format: String,
}

/// What one revision's conversation published.
#[derive(Debug, Default)]
pub struct Published {
    /// The tools listed.
    pub tools: usize,
    /// The schemas seen (listed and sent in requests).
    pub schemas: usize,
    /// Every `format` in them.
    pub formats: Vec<Format>,
}

/// Talks to `target` at `revision`: lists every tool (following `nextCursor`), then calls
/// each of `calls` (tool name, arguments) once, as a client that declares elicitation (form and
/// URL), sampling and roots and declines or refuses whatever it is asked; collects every schema
/// the server sent. Every line both ways is checked against the revision's official schema.
pub async fn published(target: &Target, revision: Revision, calls: &[(&str, Value)]) -> Published {
    let mut p = (target.0)();
    let mut out = Published::default();
    let modern = revision >= Revision::V2026_07_28;
    if !modern {
        p.request(
            json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
            "protocolVersion": revision.as_str(),
            "capabilities": capabilities(),
            "clientInfo": {"name": "rondo-published-schemas", "version": "0"}}}),
        )
        .await;
        p.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
    }
    let params = |mut params: Value| {
        if modern {
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": revision.as_str(),
                "io.modelcontextprotocol/clientCapabilities": capabilities(),
                "io.modelcontextprotocol/clientInfo": {"name": "rondo-published-schemas", "version": "0"},
            });
        }
        params
    };
    let mut cursor: Option<Value> = None;
    for page in 0.. {
        assert!(page < 100, "tools/list pages never end");
        let mut list_params = json!({});
        if let Some(c) = cursor.take() {
            list_params["cursor"] = c;
        }
        let id = format!("list-{page}");
        let list = p
            .request(json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params(list_params)}))
            .await;
        let result = &list["result"];
        let tools = result["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("{list}"));
        out.tools += tools.len();
        let at = format!("{} tools/list", revision.as_str());
        collect(&mut out, &at, result);
        match result.get("nextCursor") {
            Some(c) if !c.is_null() => cursor = Some(c.clone()),
            _ => break,
        }
    }
    for (i, (name, arguments)) in calls.iter().enumerate() {
        let id = format!("call-{i}");
        p.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": params(json!({"name": name, "arguments": arguments}))}))
            .await;
        loop {
            let msg = p.recv().await;
            let at = format!("{} tools/call {name}", revision.as_str());
            collect(&mut out, &at, &msg);
            if msg.get("method").is_some() && msg.get("id").is_some() {
                let answer = answer_to(&msg);
                p.send(answer).await;
            } else if msg["id"] == json!(id) {
                break;
            }
        }
    }
    p.close(revision).await;
    out
}

/// Asserts that every schema `target` publishes at both revisions (its `tools/list`, and the
/// requests its `calls` send) carries only [`STANDARD_FORMATS`]; returns the formats found, so a
/// caller can also pin the ones it expects.
pub async fn assert_standard_formats(target: Target, calls: &[(&str, Value)]) -> Vec<Format> {
    let mut all = Vec::new();
    for revision in [Revision::V2026_07_28, Revision::V2025_11_25] {
        let p = published(&target, revision, calls).await;
        assert!(
            p.tools > 0 && p.schemas >= p.tools,
            "{}: {} tools, {} schemas: nothing to check",
            revision.as_str(),
            p.tools,
            p.schemas
        );
        all.extend(p.formats);
    }
    let unknown: Vec<String> = all
        .iter()
        .filter(|f| !STANDARD_FORMATS.contains(&f.format.as_str()))
        .map(|f| format!("{}: \"{}\"", f.at, f.format))
        .collect();
    assert!(
        unknown.is_empty(),
        "formats JSON Schema 2020-12 does not define:\n{}",
        unknown.join("\n")
    );
    all
}

fn capabilities() -> Value {
    json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}})
}

/// The client's answer to a 2025-11-25 server request: forms and URLs declined, the model's
/// answer refused, no roots.
fn answer_to(request: &Value) -> Value {
    let id = request["id"].clone();
    match request["method"].as_str() {
        Some("elicitation/create") => {
            json!({"jsonrpc": "2.0", "id": id, "result": {"action": "decline"}})
        }
        Some("roots/list") => json!({"jsonrpc": "2.0", "id": id, "result": {"roots": []}}),
        Some("ping") => json!({"jsonrpc": "2.0", "id": id, "result": {}}),
        _ => json!({"jsonrpc": "2.0", "id": id,
            "error": {"code": -32603, "message": "this client does not answer it"}}),
    }
}

/// Collects the schemas in `message` (any value under a [`SCHEMA_KEYS`] key) into `out`.
fn collect(out: &mut Published, at: &str, message: &Value) {
    fn walk(out: &mut Published, at: &str, path: &str, v: &Value) {
        match v {
            Value::Object(m) => {
                for (k, v) in m {
                    let path = format!("{path}/{k}");
                    if SCHEMA_KEYS.contains(&k.as_str()) {
                        out.schemas += 1;
                        formats(out, at, &path, v);
                    } else {
                        walk(out, at, &path, v);
                    }
                }
            }
            Value::Array(a) => {
                for (i, v) in a.iter().enumerate() {
                    walk(out, at, &format!("{path}/{i}"), v);
                }
            }
            _ => {}
        }
    }
    walk(out, at, "", message);
}

/// Every `format` keyword in `schema` and its subschemas.
fn formats(out: &mut Published, at: &str, path: &str, schema: &Value) {
    match schema {
        Value::Object(m) => {
            for (k, v) in m {
                let path = format!("{path}/{k}");
                match (k.as_str(), v) {
                    ("format", Value::String(f)) => out.formats.push(Format {
                        at: format!("{at} {path}"),
                        format: f.clone(),
                    }),
                    (k, _) if INSTANCE_KEYS.contains(&k) => {}
                    _ => formats(out, at, &path, v),
                }
            }
        }
        Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                formats(out, at, &format!("{path}/{i}"), v);
            }
        }
        _ => {}
    }
}

/// A server to read: a binary over its stdin and stdout, or a [`Server`] over an in-memory pipe
/// with the same newline framing.
pub struct Target(Box<dyn Fn() -> Proc>);

impl Target {
    /// The binary `exe`, started with `args`, over its stdio.
    pub fn binary(exe: impl AsRef<Path>, args: &[&str]) -> Target {
        let exe = exe.as_ref().to_owned();
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        Target(Box::new(move || {
            let mut child = Command::new(&exe)
                .args(&args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .kill_on_drop(true)
                .spawn()
                .unwrap_or_else(|e| panic!("{} starts: {e}", exe.display()));
            let stdin = child.stdin.take().expect("piped");
            let stdout = child.stdout.take().expect("piped");
            Proc::new(Box::new(stdout), Box::new(stdin), End::Child(child))
        }))
    }

    /// A fresh server from `server` for each revision, served with [`Server::serve_io`].
    pub fn server<H: Handler>(server: impl Fn() -> Server<H> + 'static) -> Target {
        Target(Box::new(move || {
            let (client, server_end) = tokio::io::duplex(1 << 20);
            let (read, write) = tokio::io::split(server_end);
            let task = tokio::spawn(server().serve_io(read, write));
            let (read, write) = tokio::io::split(client);
            Proc::new(Box::new(read), Box::new(write), End::Task(task))
        }))
    }
}

/// What ends when the conversation does.
enum End {
    Child(Child),
    Task(tokio::task::JoinHandle<std::io::Result<()>>),
}

/// One conversation with the server: its pipes and the transcript.
pub struct Proc {
    stdin: Option<Box<dyn AsyncWrite + Unpin + Send>>,
    stdout: BufReader<Box<dyn AsyncRead + Unpin + Send>>,
    end: End,
    frames: Vec<Frame>,
}

impl Proc {
    fn new(
        stdout: Box<dyn AsyncRead + Unpin + Send>,
        stdin: Box<dyn AsyncWrite + Unpin + Send>,
        end: End,
    ) -> Proc {
        Proc {
            stdin: Some(stdin),
            stdout: BufReader::new(stdout),
            end,
            frames: Vec::new(),
        }
    }

    async fn send(&mut self, msg: Value) {
        let line = msg.to_string();
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .expect("the server reads");
        stdin.flush().await.expect("the server reads");
        self.frames.push(Frame {
            direction: Direction::Sent,
            message: msg,
            line,
        });
    }

    async fn recv(&mut self) -> Value {
        let mut line = String::new();
        let n = tokio::time::timeout(BOUND, self.stdout.read_line(&mut line))
            .await
            .expect("the server answers in time")
            .expect("stdout readable");
        assert!(n > 0, "the server closed stdout");
        let msg: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout carries only JSON lines, got {line:?}: {e}"));
        self.frames.push(Frame {
            direction: Direction::Received,
            message: msg.clone(),
            line: line.trim_end().to_owned(),
        });
        msg
    }

    /// Sends `msg` and reads up to its answer (skipping notifications).
    async fn request(&mut self, msg: Value) -> Value {
        let id = msg["id"].clone();
        self.send(msg).await;
        loop {
            let answer = self.recv().await;
            if answer["id"] == id && answer.get("method").is_none() {
                return answer;
            }
        }
    }

    /// Closes the server's input; it must stop within the bound. Checks the transcript.
    async fn close(mut self, revision: Revision) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = stdin.shutdown().await;
        }
        match self.end {
            End::Child(mut child) => {
                tokio::time::timeout(BOUND, child.wait())
                    .await
                    .expect("the server exits when stdin closes")
                    .expect("wait");
            }
            End::Task(task) => {
                tokio::time::timeout(BOUND, task)
                    .await
                    .expect("the server stops when its input ends")
                    .expect("the server task does not panic")
                    .expect("serving ends cleanly");
            }
        }
        validate_transcript(revision, &self.frames);
    }
}
