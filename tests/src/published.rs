//! What a server publishes to clients, read over its stdio (or an in-memory pipe): every schema in its
//! `tools/list` (each tool's `inputSchema` and `outputSchema`) and in the requests its tools send
//! (a form's `requestedSchema`, the tools of a sampling request), at both revisions. The examples'
//! `tests/schema_formats.rs` hold each one to [`assert_standard_formats`]: a `format` JSON Schema
//! 2020-12 does not define (schemars writes `uint32`, `int64`, `double` for Rust numbers) makes
//! clients' validators warn (`unknown format "uint32" ignored in schema`) or refuse the schema.
//!
//! The conversation is the runtime's test client's ([`TestClient::spawn`] for a binary), so every
//! line both ways is checked against the revision's official schema, every wait is bounded, and
//! the server must end cleanly (a binary: exit 0) when its input closes.

use rondo_mcp::protocol::{ClientCapabilities, Error, Implementation, Revision};
use rondo_mcp::testing::{Direction, Frame, Reply, Script, TestClient, TestClientBuilder};
use rondo_mcp::{Handler, Server};
use serde_json::{Value, json};
use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::process::Stdio;
use std::time::Duration;
use tokio::process::Command;

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
/// each of `calls` (tool name, arguments) once, one round, as a client that declares elicitation
/// (form and URL), sampling and roots and declines or refuses whatever it is asked; collects every
/// schema the server sent. Every line both ways is checked against the revision's official schema.
pub async fn published(target: &Target, revision: Revision, calls: &[(&str, Value)]) -> Published {
    let client = (target.0)(revision).await;
    let mut out = Published {
        tools: client.list_tools().await.expect("tools/list").len(),
        ..Published::default()
    };
    let listed = client.transcript().len();
    let mut parts = vec![(format!("{} tools/list", revision.as_str()), listed)];
    for (name, arguments) in calls {
        let params = json!({"name": name, "arguments": arguments});
        // Any answer will do (an error too): what counts is what the server sent meanwhile.
        let _ = client.request("tools/call", params).await;
        let at = format!("{} tools/call {name}", revision.as_str());
        parts.push((at, client.transcript().len()));
    }
    let transcript = client.transcript();
    client
        .close()
        .await
        .expect("the server ends cleanly when its input closes");
    let mut from = 0;
    for (at, to) in parts {
        for frame in &transcript[from..to] {
            collect_frame(&mut out, &at, frame);
        }
        from = to;
    }
    out
}

/// Collects the schemas a received line carries: a listing's from its `result`, any other's
/// from the whole message.
fn collect_frame(out: &mut Published, at: &str, frame: &Frame) {
    if frame.direction != Direction::Received {
        return;
    }
    match frame.message.get("result") {
        Some(result) if at.ends_with("tools/list") => collect(out, at, result),
        _ => collect(out, at, &frame.message),
    }
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

/// A client that declares elicitation (form and URL), sampling and roots, and at 2025-11-25
/// declines every form and URL, refuses the model's answer and shares no roots.
fn declining<H>(builder: TestClientBuilder<H>) -> TestClientBuilder<H> {
    let caps = json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}});
    let caps: ClientCapabilities = serde_json::from_value(caps).expect("capabilities");
    let answers = Script::new().otherwise(|method, _| match method {
        "elicitation/create" => Reply::Decline,
        "roots/list" => Reply::roots(Vec::new()),
        "ping" => Reply::Raw(json!({})),
        _ => Reply::Error(Error::internal("this client does not answer it")),
    });
    builder
        .capabilities(caps)
        .client_info(Implementation::new("rondo-published-schemas", "0"))
        .script(answers)
        .timeout(BOUND)
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

/// Connects the declining client to a fresh server, at a revision.
type Connect = Box<dyn Fn(Revision) -> Pin<Box<dyn Future<Output = TestClient>>>>;

/// A server to read: a binary over its stdin and stdout, or a [`Server`] over an in-memory pipe
/// with the same newline framing.
pub struct Target(Connect);

impl Target {
    /// The binary `exe`, started with `args` (stderr discarded) for each revision, over its stdio.
    pub fn binary(exe: impl AsRef<Path>, args: &[&str]) -> Target {
        let exe = exe.as_ref().to_owned();
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        Target(Box::new(move |revision| {
            let mut command = Command::new(&exe);
            command.args(&args).stderr(Stdio::null());
            let started = TestClient::spawn(revision, &mut command)
                .unwrap_or_else(|e| panic!("{} starts: {e}", exe.display()));
            connect(started)
        }))
    }

    /// A fresh server from `server` for each revision, served with [`Server::serve_io`].
    pub fn server<H: Handler + 'static>(server: impl Fn() -> Server<H> + 'static) -> Target {
        Target(Box::new(move |revision| {
            connect(TestClient::builder(server(), revision))
        }))
    }
}

fn connect<H: 'static>(builder: TestClientBuilder<H>) -> Pin<Box<dyn Future<Output = TestClient>>> {
    Box::pin(async move { declining(builder).connect().await.expect("connects") })
}
