//! The floor: what a hand-written server costs with no MCP framework at all. Each line (or HTTP
//! body) is read with `serde_json` into typed `#[derive(Deserialize)]` structs, and the answer
//! is written with `format!` as the same bytes Rondo writes for the same call (checked by
//! `stdio_bench` and `http_bench` before they measure). It serves `initialize` (2025-11-25),
//! `tools/call` of `add` and `wait` at both revisions (2026-07-28: `params._meta` names the
//! version), and answers anything else with a JSON-RPC error. It validates nothing beyond what
//! its structs need: it is the cost floor, not a server to copy.

use serde::Deserialize;
use serde_json::value::RawValue;
use std::time::Duration;

/// How long `wait` sleeps before it answers.
pub const WAIT: Duration = Duration::from_millis(300);

/// A JSON-RPC message from the client; `id` is echoed verbatim.
#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: Option<&'a str>,
    #[serde(borrow)]
    params: Option<Params<'a>>,
}

/// The params of `tools/call` (and `_meta` of any request).
#[derive(Deserialize)]
struct Params<'a> {
    #[serde(borrow)]
    name: Option<&'a str>,
    #[serde(borrow)]
    arguments: Option<&'a RawValue>,
    #[serde(rename = "_meta")]
    #[serde(borrow)]
    meta: Option<Meta<'a>>,
}

/// `params._meta` at 2026-07-28.
#[derive(Deserialize)]
struct Meta<'a> {
    #[serde(rename = "io.modelcontextprotocol/protocolVersion")]
    #[serde(borrow)]
    protocol_version: Option<&'a str>,
}

/// The arguments of `add`.
#[derive(Deserialize)]
struct AddArgs {
    a: i64,
    b: i64,
}

/// What to do with one message.
pub enum Reply {
    /// Nothing to answer (a notification, or a response).
    None,
    /// Answer this line now (no trailing newline).
    Now(String),
    /// Answer this line after [`WAIT`] (the `wait` tool).
    Later(String),
}

/// The answer to one message (a line without its newline, or an HTTP body).
pub fn reply(bytes: &[u8]) -> Reply {
    let msg: Message = match serde_json::from_slice(bytes) {
        Ok(m) => m,
        Err(e) => return Reply::Now(error("null", -32700, &e.to_string())),
    };
    let (Some(id), Some(method)) = (msg.id.map(RawValue::get), msg.method) else {
        return Reply::None;
    };
    let params = msg.params;
    let modern = params
        .as_ref()
        .and_then(|p| p.meta.as_ref())
        .and_then(|m| m.protocol_version)
        == Some("2026-07-28");
    match (method, params.as_ref().and_then(|p| p.name)) {
        ("initialize", _) => Reply::Now(format!(
            r#"{{"id":{id},"jsonrpc":"2.0","result":{{"capabilities":{{"tools":{{}}}},"protocolVersion":"2025-11-25","serverInfo":{{"name":"rondo-bench","version":"0.0.0"}}}}}}"#
        )),
        ("tools/call", Some("add")) => {
            let args = params.as_ref().and_then(|p| p.arguments);
            match args.map(|a| serde_json::from_str::<AddArgs>(a.get())) {
                Some(Ok(AddArgs { a, b })) => match a.checked_add(b) {
                    Some(sum) => Reply::Now(text_result(id, modern, &sum.to_string())),
                    None => Reply::Now(error(id, -32602, "the sum overflows")),
                },
                Some(Err(e)) => Reply::Now(error(id, -32602, &e.to_string())),
                None => Reply::Now(error(id, -32602, "add needs arguments a and b")),
            }
        }
        ("tools/call", Some("wait")) => Reply::Later(text_result(id, modern, "waited")),
        _ => Reply::Now(error(id, -32601, "method not found")),
    }
}

/// A `tools/call` result with one text block, byte for byte as Rondo writes it at each revision
/// (`jsonrpc` and `id` first, the members in the order its types declare them; at 2026-07-28
/// with `resultType` and the server's name in `_meta` after the content).
fn text_result(id: &str, modern: bool, text: &str) -> String {
    if modern {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"{text}"}}],"resultType":"complete","_meta":{{"io.modelcontextprotocol/serverInfo":{{"name":"rondo-bench","version":"0.0.0"}}}}}}}}"#
        )
    } else {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"{text}"}}]}}}}"#
        )
    }
}

/// A JSON-RPC error (`message` is escaped as a JSON string).
fn error(id: &str, code: i32, message: &str) -> String {
    let message = serde_json::Value::from(message);
    format!(r#"{{"error":{{"code":{code},"message":{message}}},"id":{id},"jsonrpc":"2.0"}}"#)
}

/// The floor must answer what Rondo answers: the same JSON (or the run stops), ideally the
/// same bytes (said either way: a change of Rondo's key order alone does not stop the run).
pub fn same_answer(rondo: &str, floor: &str) {
    let parse = |l: &str| serde_json::from_str::<serde_json::Value>(l).expect("JSON");
    assert_eq!(
        parse(rondo),
        parse(floor),
        "the floor must answer what Rondo answers: update rondo_bench::floor"
    );
    println!(
        "floor and Rondo: {}",
        if rondo == floor {
            "the same bytes"
        } else {
            "the same JSON, NOT the same bytes (update rondo_bench::floor)"
        }
    );
}
