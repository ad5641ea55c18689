//! The reader of a message as it was before `members` (design §23): the whole text built into a
//! `Value`, then classified. Kept only as the oracle of a differential test: [`Inbound::parse`]
//! must classify every input as this does (a parse error may differ only in its reason text),
//! over the committed fuzz corpora, hand-written edge cases, and their mutations.

use super::error::code;
use super::{Error, Inbound, JsonObject, Meta, Method, Params, Rejected, Request, RequestId};
use super::{RequestMeta, echo};
use serde_json::Value;

fn parse(bytes: &[u8]) -> Result<Inbound, Rejected> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| Rejected {
        id: None,
        error: Error::parse_error(e),
    })?;
    from_value(value)?.unique_answers(bytes)
}

fn invalid(id: Option<RequestId>, reason: &str) -> Rejected {
    Rejected {
        id,
        error: Error::invalid_request(reason),
    }
}

fn from_value(value: Value) -> Result<Inbound, Rejected> {
    let Value::Object(mut obj) = value else {
        let reason = if value.is_array() {
            "batches are not supported"
        } else {
            "a JSON-RPC message must be an object"
        };
        return Err(invalid(None, reason));
    };
    let raw_id = obj.remove("id");
    let id = match &raw_id {
        None => None,
        Some(v) => match RequestId::from_value(v) {
            Some(id) => Some(id),
            None if v.is_null() => None,
            None => return Err(invalid(None, "`id` must be a string or an integer")),
        },
    };
    let version = obj.get("jsonrpc") == Some(&Value::String("2.0".into()));
    match obj.remove("method") {
        Some(_) if !version => Err(invalid(id, "`jsonrpc` must be \"2.0\"")),
        Some(method) => call(obj, method, id, raw_id.is_some()),
        None => response(obj, id, version),
    }
}

fn call(
    mut obj: JsonObject,
    method: Value,
    id: Option<RequestId>,
    has_id: bool,
) -> Result<Inbound, Rejected> {
    let Value::String(name) = method else {
        return Err(invalid(id, "`method` must be a string"));
    };
    let method = Method::parse(&name);
    let params = match obj.remove("params") {
        None => None,
        Some(Value::Object(p)) => Some(p),
        Some(_) => return Err(invalid(id, "`params` must be an object")),
    };
    match (id, has_id) {
        (Some(id), _) => {
            let params = Params::parse(&method, params);
            Ok(Inbound::Request(Request { id, method, params }))
        }
        (None, true) => Err(invalid(None, "a request `id` must not be null")),
        (None, false) => Ok(Inbound::Notification { method, params }),
    }
}

fn response(
    mut obj: JsonObject,
    id: Option<RequestId>,
    version: bool,
) -> Result<Inbound, Rejected> {
    let Some(id) = id else {
        return Err(invalid(None, "a response needs an `id`"));
    };
    let bad = |reason: String| {
        Ok(Inbound::BadResponse {
            id: id.clone(),
            reason,
        })
    };
    if !version {
        return bad("`jsonrpc` must be \"2.0\"".into());
    }
    let outcome = match (obj.remove("result"), obj.remove("error")) {
        (Some(result), None) => Ok(result),
        (None, Some(err)) => match serde_json::from_value::<Error>(err) {
            Ok(error) => Err(error),
            Err(e) => return bad(format!("malformed `error` object: {}", echo(e))),
        },
        (Some(_), Some(_)) => return bad("a response has both a `result` and an `error`".into()),
        (None, None) => return bad("a response needs a `result` or an `error`".into()),
    };
    Ok(Inbound::Response { id, outcome })
}

/// Whether the two readers agree on `bytes`. They may differ in one way, said in design §23:
/// a number beyond `f64` in a member the new reader does not build is no parse error there.
///
/// The new reader reads a `_meta` that 2026-07-28 accepts straight into [`Meta::Modern`]; the
/// old one kept every `_meta` as a `Value`. So the old one's is read as the engine reads it
/// ([`RequestMeta::parse`]) before the two are compared: the new reader must hold exactly what
/// that returns when it succeeds, and the `Value` when it fails.
fn agree(bytes: &[u8]) -> Result<(), String> {
    let (mut old, new) = (parse(bytes), Inbound::parse(bytes));
    if let Ok(Inbound::Request(req)) = &mut old
        && let Some(Meta::Value(v)) = &req.params.meta
        && let Ok(m) = RequestMeta::parse(Some(v))
    {
        req.params.meta = Some(Meta::Modern(Box::new(m)));
    }
    let same = match (&old, &new) {
        (Ok(a), Ok(b)) => a == b,
        (Err(a), _) if a.error.code == code::PARSE_ERROR && beyond_f64(bytes) => true,
        (Err(a), Err(b)) if a.error.code == code::PARSE_ERROR => {
            b.error.code == code::PARSE_ERROR && b.id.is_none()
        }
        (Err(a), Err(b)) => a == b,
        _ => false,
    };
    if same {
        Ok(())
    } else {
        Err(format!(
            "{:?}\n  old: {old:?}\n  new: {new:?}",
            String::from_utf8_lossy(bytes)
        ))
    }
}

/// Whether `bytes` is JSON text that no `Value` holds: it is well formed (serde_json skips it
/// without building it) but holds a number beyond `f64`.
fn beyond_f64(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok()
        && serde_json::from_slice::<Value>(bytes).is_err()
}

/// The edge cases of the envelope and of the typed params, written out.
const CASES: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"sampling":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/logLevel":"debug","progressToken":"p"},"name":"add","arguments":{"a":1,"b":2}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":null,"progressToken":7},"name":"add"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{},"sampling":{"tools":{}}},"progressToken":1.5},"name":"add"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}},"name":"add"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":[],"io.modelcontextprotocol/logLevel":null},"name":"add"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/logLevel":"loud"},"name":"p"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":{"progressToken":"t"},"uri":"u"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":7,"io.modelcontextprotocol/clientCapabilities":{}},"name":"add"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":"x","name":"add"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":["2026-07-28",{}],"name":"add"}}"#,
    // `params` read typed in the one pass (`method` before it), and every way that reading
    // must give way to the members: the method named again, no id, a null id.
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1},"x":[{"y":null}],"name":"sub"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add"},"method":"tools/list"}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"c"},"method":"tools/call"}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add"},"method":"prompts/get"}"#,
    r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"add","arguments":{"a":1},"other":2}}"#,
    r#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"add"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[{"name":"add"}]}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"add"}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add"},"params":{"name":"sub","arguments":[]}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7,"arguments":{"a":1e999}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"u","arguments":{"a":1e999},"name":3}}"#,
    r#"{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1e999}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","requestState":"s","requestState":null,"inputResponses":{"q":{}},"inputResponses":{"q":1}}}"#,
    r#"{"jsonrpc":"2.0","id":[1],"method":"tools/call","params":{"name":"add"}}"#,
    r#"{"params":{"name":"add"},"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
    r#"{"params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"add","arguments":{"a":1},"requestState":"s","inputResponses":{"q":{"action":"accept"}}},"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
    r#"{"params":{"uri":"u","arguments":{"a":1},"requestState":"s","inputResponses":{"q":{}}},"id":"r","method":"resources/read","jsonrpc":"2.0"}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"t\u006fols/call","params":{"n\u0061me":"add"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":null},"name":"add"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026\u002d07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":null,"other":[1]},"name":"add"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientInfo":null},"name":"add"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}"#,
    r#"{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"add","arguments":null,"requestState":"s","inputResponses":{"q":{"action":"accept"}}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","name":"b","arguments":{"a":1,"a":2}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","inputResponses":{"q":{},"q":{}}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","inputResponses":{"q":1}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","inputResponses":[]}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":1}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":[1]}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":"{}"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///x","arguments":7}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"p","arguments":{"k":"v"}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[]}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"c","_meta":{}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tasks/update","params":{"taskId":"t","inputResponses":{"q":{}}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":-0,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":1e2,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":9223372036854775808,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":-9223372036854775808,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":"\u0041\n","method":"ping"}"#,
    r#"{"\u006asonrpc":"2\u002e0","\u0069d":1,"method":"pi\u006eg"}"#,
    r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
    r#"{"jsonrpc":2,"id":1,"method":"ping"}"#,
    r#"{"id":1,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":7}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"a","method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":1,"id":"two","method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":{"x":1}}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":{"x":1,"x":2}}"#,
    r#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"m"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":""}}"#,
    r#"{"jsonrpc":"2.0","id":1}"#,
    r#"{"jsonrpc":"2.0","result":{}}"#,
    r#"{"id":1,"result":{}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"ping","extra":1e400}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":1e400}}}"#,
    r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
    r#"[1,]"#,
    r#"3"#,
    r#""s""#,
    r#"null"#,
    r#"{}"#,
    r#"{"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"ping"} {}"#,
    " \t{\"jsonrpc\" : \"2.0\" , \"id\" : 1 , \"method\" : \"tools/call\" , \"params\" : { \"name\" : \"t\" } }\r\n",
];

/// Every line of every file of the committed fuzz corpora of `stdio` and `input_responses`
/// (`fuzz/corpus.tar.gz`, read in place).
fn corpus_lines() -> Vec<Vec<u8>> {
    use std::io::Read as _;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus.tar.gz");
    let Ok(file) = std::fs::File::open(path) else {
        return Vec::new();
    };
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let mut lines = Vec::new();
    for entry in archive.entries().expect("a tar archive") {
        let mut entry = entry.expect("an archive entry");
        let path = entry.path().expect("a path").to_string_lossy().into_owned();
        if ["corpus/stdio/", "corpus/input_responses/"]
            .iter()
            .any(|p| path.starts_with(p))
            && entry.header().entry_type().is_file()
        {
            let mut data = Vec::new();
            entry.read_to_end(&mut data).expect("a corpus file reads");
            lines.extend(data.split(|&b| b == b'\n').map(<[u8]>::to_vec));
        }
    }
    lines
}

#[test]
fn the_members_reader_classifies_every_message_as_the_value_reader_did() {
    let mut inputs: Vec<Vec<u8>> = CASES.iter().map(|c| c.as_bytes().to_vec()).collect();
    let corpus = corpus_lines();
    assert!(
        corpus.len() > 1000,
        "the corpora are there: {}",
        corpus.len()
    );
    inputs.extend(corpus);
    // Mutations of the written cases: each byte dropped, and each byte replaced by one of
    // the characters that change JSON's structure.
    let mut mutated = Vec::new();
    for case in CASES {
        let b = case.as_bytes();
        for i in 0..b.len() {
            let mut dropped = b.to_vec();
            dropped.remove(i);
            mutated.push(dropped);
            for c in [b'"', b'{', b'}', b'[', b',', b':', b'\\', b'1', b'n'] {
                let mut swapped = b.to_vec();
                swapped[i] = c;
                mutated.push(swapped);
            }
        }
    }
    inputs.extend(mutated);
    let failures: Vec<String> = inputs.iter().filter_map(|i| agree(i).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} inputs read differently:\n{}",
        failures.len(),
        inputs.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}
