//! The fuzz targets' bodies, one function per target, shared by `fuzz/fuzz_targets/*.rs`
//! (libFuzzer, nightly) and `tests/tests/fuzz_corpora.rs` (the committed corpora replayed as an
//! ordinary test on stable). A body panics only on a finding: a panic of the server, a message
//! that is not JSON-RPC, or a broken invariant the body asserts.

use bytes::Bytes;
use http::header::{HeaderName, HeaderValue};
use http::{HeaderMap, Uri};
use http_body_util::{BodyExt as _, Full};
use rondo_mcp::fuzzing;
use rondo_mcp::http::HttpConfig;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{JsonObject, Revision};
use rondo_mcp::question::{Read, Rendered};
use rondo_mcp::state::{GuardError, KeyRing, MemoryReplayGuard, ReplayGuard, RoundUse};
use rondo_mcp::testing::ManualClock;
use rondo_mcp::{Elicit, elicit, roots, sample, tool};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, SystemTime};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A titled single choice.
#[derive(Debug, Elicit)]
pub enum Seat {
    /// A window seat
    Window,
    #[elicit(title = "An aisle seat")]
    Aisle,
}

/// An untitled choice, renamed.
#[derive(Debug, Elicit, PartialEq)]
#[elicit(rename_all = "lowercase")]
pub enum Meal {
    Vegan,
    Fish,
    Chicken,
}

/// A titled choice rendered as the legacy `enum` + `enumNames` for 2025-11-25.
#[derive(Debug, Elicit)]
#[elicit(legacy_enum_names)]
pub enum Old {
    /// The first
    First,
    /// The second
    Second,
}

/// A form with every field kind: text (lengths, each format, a default), numbers and integers
/// (bounds, every width), yes/no (consent and not), single and multiple choices, optional
/// fields.
#[derive(Debug, Elicit)]
#[elicit(rename_all = "camelCase")]
#[allow(
    dead_code,
    reason = "the replay test includes this file; only Debug reads some fields"
)]
pub struct Everything {
    /// Your name
    #[elicit(min_length = 2, max_length = 40)]
    pub full_name: String,
    #[elicit(format = "email")]
    pub email: Option<String>,
    #[elicit(format = "uri")]
    pub website: Option<String>,
    #[elicit(format = "date")]
    pub birthday: Option<String>,
    #[elicit(format = "date-time", rename = "callAt")]
    pub call_time: Option<String>,
    #[elicit(default = "none")]
    pub note: String,
    #[elicit(min = 1, max = 9)]
    pub travellers: u8,
    #[elicit(min = -10.5, max = 40)]
    pub celsius: f64,
    pub offset: i16,
    pub big: u64,
    pub signed: i64,
    pub ratio: Option<f32>,
    #[elicit(default = 3)]
    pub nights: u32,
    /// Book it?
    pub approve: bool,
    #[elicit(default = false, not_consent)]
    pub newsletter: bool,
    pub seat: Seat,
    #[elicit(default = Meal::Fish)]
    pub meal: Meal,
    pub old: Option<Old>,
    #[elicit(min_items = 1, max_items = 2)]
    pub extras: Vec<Meal>,
}

impl Everything {
    /// Asserts what an accepted form promises: every bound the form declares holds.
    fn check(&self) {
        let n = self.full_name.chars().count();
        assert!((2..=40).contains(&n), "fullName has {n} characters");
        assert!((1..=9).contains(&self.travellers), "{}", self.travellers);
        assert!(
            (-10.5..=40.0).contains(&self.celsius),
            "celsius {}",
            self.celsius
        );
        assert!((1..=2).contains(&self.extras.len()), "{:?}", self.extras);
        assert!(self.ratio.is_none_or(f32::is_finite));
    }
}

#[elicit(form, fallback = refuse)]
fn everything() -> Form<Everything> {
    Form::new("Fill in everything")
}

#[sample(fallback = refuse)]
fn capital() -> Sample {
    Sample::user("What is the capital of France?").max_tokens(50)
}

#[roots(fallback = refuse)]
fn client_roots() -> Roots;

/// Asks the form, the model and the roots at once.
#[tool(asks = [everything, capital, client_roots])]
async fn trip(cx: &Cx) -> String {
    let (form, capital, roots) = tokio::join!(
        cx.ask(everything()),
        cx.ask(capital()),
        cx.ask(client_roots())
    );
    if let Answer::Accept(f) = &form {
        f.check();
    }
    format!(
        "{:?} {capital} {}",
        form.ok().map(|f| f.nights),
        roots.roots().len()
    )
}

/// Asks the form, then the model.
#[tool(asks = [everything, capital])]
async fn steps(cx: &Cx) -> String {
    let form = cx.ask(everything()).await;
    let capital = cx.ask(capital()).await;
    format!("{} {capital}", form.ok().map_or(0, |f| f.nights))
}

/// Echoes its text.
#[tool]
async fn echo(text: String, times: Option<u8>) -> String {
    text.repeat(usize::from(times.unwrap_or(1)).min(4))
}

/// The key ring every target seals and opens with.
pub fn keys() -> KeyRing {
    KeyRing::new(7, [7; 32])
}

/// The server every target talks to: its tools ask every kind of question.
pub fn server() -> Server<Router> {
    let info = ServerInfo::new("fuzz", "1").with_tools().with_logging();
    let router = Router::new(info).tools(rondo_mcp::tools![trip, steps, echo]);
    Server::new(router)
        .state_keys(keys())
        .clock(ManualClock::new(fuzzing::NOW_MS))
        .audience("fuzz")
}

/// A runtime on a paused clock: every timeout (ask, drain, keep-alive) passes as soon as
/// nothing else can run, so no input makes a body wait.
fn block_on<F: Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .start_paused(true)
        .build()
        .expect("a runtime")
        .block_on(f)
}

/// `data` as JSON, or as a JSON string when it is not JSON.
fn json_or_string(data: &[u8]) -> Value {
    serde_json::from_slice(data)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(data).into_owned()))
}

/// Asserts that a line the server wrote is one JSON-RPC message.
fn check_message(line: &[u8]) -> Value {
    let msg: Value = serde_json::from_slice(line).unwrap_or_else(|e| {
        panic!("not JSON ({e}): {}", String::from_utf8_lossy(line));
    });
    assert_eq!(msg["jsonrpc"], "2.0", "{msg}");
    let is_response = msg.get("result").is_some() || msg.get("error").is_some();
    assert!(
        msg.get("method").is_some() != is_response,
        "a message is a request, a notification or a response: {msg}"
    );
    if let Some(e) = msg.get("error") {
        assert!(e["code"].is_i64(), "{msg}");
        assert!(e["message"].is_string(), "{msg}");
    }
    msg
}

// -------------------------------------------------------------------------------------------
// Target `stdio`: JSON-RPC decoding and dispatch over the newline-delimited framing.

/// Writes `data` to a stdio server as its whole input and reads everything it answers until
/// it returns; every line must be a JSON-RPC message.
pub fn stdio(data: &[u8]) {
    let input = data.to_vec();
    let out = block_on(async move {
        let (client, io) = tokio::io::duplex(1 << 16);
        let (r, w) = tokio::io::split(io);
        let serving = tokio::spawn(server().max_message_bytes(16 * 1024).serve_io(r, w));
        let (mut cr, mut cw) = tokio::io::split(client);
        let write = async move {
            let _ = cw.write_all(&input).await;
            let _ = cw.shutdown().await;
        };
        let read = async move {
            let mut out = Vec::new();
            cr.read_to_end(&mut out).await.expect("the output reads");
            out
        };
        let ((), out) = tokio::join!(write, read);
        serving
            .await
            .expect("serve_io does not panic")
            .expect("serve_io ends cleanly at end of input");
        out
    });
    for line in out.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        check_line(line);
    }
}

/// Asserts that a line the server wrote is one JSON-RPC message, or the answer to a
/// 2025-03-26 batch: a non-empty array of responses.
fn check_line(line: &[u8]) {
    if line.first() != Some(&b'[') {
        check_message(line);
        return;
    }
    let batch: Vec<&serde_json::value::RawValue> = serde_json::from_slice(line)
        .unwrap_or_else(|e| panic!("not a JSON array ({e}): {}", String::from_utf8_lossy(line)));
    assert!(!batch.is_empty(), "an empty batch answer");
    for entry in batch {
        let msg = check_message(entry.get().as_bytes());
        assert!(
            msg.get("method").is_none(),
            "a batch answer holds responses: {msg}"
        );
    }
}

// -------------------------------------------------------------------------------------------
// Target `request_state`: opening a `requestState`.

/// `data` as a token, as the JSON value of a token, and sealed as a payload: each is refused
/// with the frozen `-32602` or opens to a state that round-trips.
pub fn request_state(data: &[u8]) {
    let keys = keys();
    let text = String::from_utf8_lossy(data).into_owned();
    let _ = fuzzing::open_state(&keys, &Value::String(text));
    if let Ok(v) = serde_json::from_slice::<Value>(data) {
        let _ = fuzzing::open_state(&keys, &v);
    }
    let sealed = keys.seal(data).expect("seals");
    let _ = fuzzing::open_state(&keys, &Value::String(sealed));
}

// -------------------------------------------------------------------------------------------
// Target `input_responses`: `inputResponses` parsing and matching.

/// A replay guard that starts afresh with every input: a [`MemoryReplayGuard`] replaced by
/// [`FreshGuard::reset`], so the precomputed `requestState`s of [`Rig`] are each taken once
/// per input, as the real states of a server started for that input would be.
#[derive(Default)]
struct FreshGuard(std::sync::Mutex<Arc<MemoryReplayGuard>>);

impl FreshGuard {
    fn current(&self) -> Arc<MemoryReplayGuard> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
    fn reset(&self) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Arc::default();
    }
}

/// The server's handle on the [`FreshGuard`] the target resets.
struct Guard(Arc<FreshGuard>);

impl ReplayGuard for Guard {
    async fn take(
        &self,
        round: &str,
        fingerprint: &str,
        expires_at: SystemTime,
        now: SystemTime,
    ) -> Result<RoundUse, GuardError> {
        self.0
            .current()
            .take(round, fingerprint, expires_at, now)
            .await
    }
}

/// What a 2026-07-28 client declares on every call: form elicitation, sampling and roots.
const META: &str = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"sampling":{}, "roots":{}}}"#;

/// A form answer that fits [`Everything`].
fn good_form() -> Value {
    json!({"action": "accept", "content": {
        "fullName": "Ada Lovelace", "travellers": 2, "celsius": 21.5, "offset": -3,
        "big": 7, "signed": -7, "approve": true, "seat": "window", "extras": ["vegan"]
    }})
}

/// What the `input_responses` target serves with, built once per thread (a fuzzing process
/// has one): a current-thread runtime on a paused clock, the server's engine served directly
/// ([`fuzzing::Direct`]), its replay guard, and real sealed `requestState`s of the asking tools
/// at several rounds, from which every input starts.
struct Rig {
    rt: tokio::runtime::Runtime,
    direct: fuzzing::Direct<Router>,
    guard: Arc<FreshGuard>,
    /// `(tool, requestState, inputRequests)`: `trip` and `steps` at their first round;
    /// `steps` at its second (the form answered and carried, the model asked); `trip` at its
    /// second with the form asked again (an answer that did not fit) and the model and the
    /// roots answered; `trip` at the last round the server allows (the form asked again each
    /// round), where asking once more is the round cap's `-32602`.
    states: Vec<(&'static str, Value, Value)>,
}

thread_local! {
    static RIG: Rig = Rig::new();
}

impl Rig {
    fn new() -> Rig {
        let guard = Arc::new(FreshGuard::default());
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .start_paused(true)
            .build()
            .expect("a runtime");
        let direct = fuzzing::Direct::new(server().replay_guard(Guard(guard.clone())));
        let mut rig = Rig {
            rt,
            direct,
            guard,
            states: Vec::new(),
        };
        let (first, model, roots) = (
            json!({}),
            json!({"capital": {"role": "assistant", "model": "m",
                "content": {"type": "text", "text": "Paris"}}}),
            json!({"client_roots": {"roots": [{"uri": "file:///srv"}]}}),
        );
        let misfit = json!({"action": "accept", "content": {"fullName": "A"}});
        let trip = rig.state("trip", None, &first).expect("trip asks");
        let steps = rig.state("steps", None, &first).expect("steps asks");
        let steps_2 = rig.state("steps", Some(&steps), &json!({"everything": good_form()}));
        let steps_2 = steps_2.expect("steps asks the model next");
        let mut answers = model.as_object().cloned().unwrap_or_default();
        answers.extend(roots.as_object().cloned().unwrap_or_default());
        answers.insert("everything".into(), misfit.clone());
        let trip_2 = rig.state("trip", Some(&trip), &Value::Object(answers));
        let trip_2 = trip_2.expect("trip asks the form again");
        // Asked again until the round cap refuses another round: the last state it sealed.
        let mut last = trip_2.clone();
        while let Some(next) = rig.state("trip", Some(&last), &json!({"everything": misfit})) {
            last = next;
        }
        rig.states = [
            ("trip", trip),
            ("steps", steps),
            ("steps", steps_2),
            ("trip", trip_2),
            ("trip", last),
        ]
        .into_iter()
        .map(|(tool, (state, asked))| (tool, state, asked))
        .collect();
        rig
    }

    /// The `requestState` and `inputRequests` the server answers `tool` with, given `state`
    /// (its `requestState` and what it asked) and `responses`, if it asks again.
    fn state(
        &self,
        tool: &str,
        state: Option<&(Value, Value)>,
        responses: &Value,
    ) -> Option<(Value, Value)> {
        self.guard.reset();
        let line = call_line(0, tool, state.map(|s| &s.0), &responses.to_string());
        call(self, 0, &line)
    }
}

/// A `tools/call` of `tool` (no arguments) with `responses` (JSON text) as `inputResponses`,
/// and `state` as `requestState` when given.
fn call_line(id: u32, tool: &str, state: Option<&Value>, responses: &str) -> String {
    let state = state.map_or(String::new(), |s| format!(r#""requestState":{s},"#));
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{{}},"_meta":{META},{state}"inputResponses":{responses}}}}}"#
    )
}

/// Serves `line` and checks what the server wrote: JSON-RPC messages, the last of them the
/// answer to `id`. The answer's `requestState`, if it asks again, with its `inputRequests`.
fn call(rig: &Rig, id: u32, line: &str) -> Option<(Value, Value)> {
    let written = rig.rt.block_on(rig.direct.serve_line(line));
    let mut answer = None;
    for msg in &written {
        answer = Some(check_message(msg.as_bytes()));
    }
    let answer = answer.expect("every request is answered");
    assert_eq!(answer["id"], json!(id), "the answer comes last: {answer}");
    assert!(answer.get("method").is_none(), "an answer: {answer}");
    let result = &answer["result"];
    let state = result.get("requestState")?.clone();
    Some((state, result["inputRequests"].clone()))
}

/// `data` (JSON, else a string) as `inputResponses`: read directly, then sent with each real
/// `requestState` of [`Rig`] and on with the state each answer asks again with, while what it
/// asks changes (the same questions with the same answers would be the same round again, but
/// for its number; the round cap has a state of its own); and once per tool up front without
/// state, where the input goes as its bytes came when it is JSON (so the parser and the
/// duplicate-key check see them as sent). Every answer is a JSON-RPC response, the last
/// message written for its request, never a hang or a panic.
pub fn input_responses(data: &[u8]) {
    let parsed = serde_json::from_slice::<Value>(data).ok();
    let raw = parsed.as_ref().and_then(|_| std::str::from_utf8(data).ok());
    let responses =
        parsed.unwrap_or_else(|| Value::String(String::from_utf8_lossy(data).into_owned()));
    let mut params = JsonObject::new();
    params.insert("inputResponses".into(), responses.clone());
    let _ = fuzzing::input_responses(&params);
    let text = responses.to_string();
    let raw = raw.unwrap_or(&text);
    RIG.with(|rig| {
        rig.guard.reset();
        let mut id = 0;
        for (tool, state, asked) in &rig.states {
            let (mut state, mut asked) = (state.clone(), asked.clone());
            for _ in 0..5 {
                id += 1;
                let Some((next, requests)) =
                    call(rig, id, &call_line(id, tool, Some(&state), &text))
                else {
                    break;
                };
                if requests == asked {
                    break;
                }
                (state, asked) = (next, requests);
            }
        }
        for tool in ["trip", "steps"] {
            id += 1;
            call(rig, id, &call_line(id, tool, None, raw));
        }
    });
}

// -------------------------------------------------------------------------------------------
// Target `form_answer`: form answers read into a `#[derive(Elicit)]` type.

/// `data` (JSON, else a string) as the answer to the form at both revisions, as the content
/// of an accepted answer, and as content read directly. An answer reads as accepted (then
/// every bound holds), declined, cancelled, or asked again with a reason.
pub fn form_answer(data: &[u8]) {
    let answer = json_or_string(data);
    if let Value::Object(content) = &answer
        && let Ok(form) = Everything::from_content(content)
    {
        form.check();
    }
    let accepted = json!({"action": "accept", "content": answer});
    let form = Form::<Everything>::new("Fill in everything");
    for revision in [
        Revision::V2025_06_18,
        Revision::V2025_11_25,
        Revision::V2026_07_28,
    ] {
        let sent = form.request(revision);
        for a in [&answer, &accepted] {
            match form.read("everything", &sent, a.clone()) {
                Read::Answer(Answer::Accept(f)) => f.check(),
                Read::Answer(Answer::Decline | Answer::Cancel) => {}
                Read::AskAgain(why) | Read::Fallback(why) => {
                    assert!(!why.is_empty(), "a reason is given")
                }
            }
        }
    }
}

// -------------------------------------------------------------------------------------------
// Target `http_headers`: header and authority validation.

/// `data` as an HTTP request (`METHOD URI` line, `name: value` lines, a blank line, the body)
/// through the `Host`/`Origin` check and the whole service; its first line also as a `Host`
/// alone. What the check accepts must be a local authority; the service answers every request
/// with a status, and a JSON answer is JSON.
pub fn http_headers(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (head, body) = text.split_once("\n\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let first = lines.next().unwrap_or("");
    let _ = fuzzing::default_host_allowed(first);
    let (method, uri) = first.split_once(' ').unwrap_or(("POST", "/mcp"));
    let method = http::Method::from_bytes(method.as_bytes()).unwrap_or(http::Method::POST);
    let uri: Uri = uri.parse().unwrap_or_else(|_| Uri::from_static("/mcp"));
    let mut headers = HeaderMap::new();
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let name = HeaderName::from_bytes(name.trim().as_bytes());
        let value = HeaderValue::from_bytes(value.trim().as_bytes());
        if let (Ok(n), Ok(v)) = (name, value) {
            headers.append(n, v);
        }
    }
    let _ = fuzzing::check_origin(&uri, &headers);
    let body = Bytes::from(body.to_owned());
    block_on(async move {
        let svc = server().into_http(HttpConfig::default());
        let mut req = http::Request::new(Full::new(body));
        *req.method_mut() = method;
        *req.uri_mut() = uri;
        *req.headers_mut() = headers;
        let resp = svc.handle(req).await;
        let json = resp
            .headers()
            .get(http::header::CONTENT_TYPE)
            .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
        // A stream (SSE) may stay open: read what comes within a minute of the paused clock.
        let got = tokio::time::timeout(Duration::from_secs(60), resp.into_body().collect()).await;
        if let (true, Ok(Ok(bytes))) = (json, got) {
            let bytes = bytes.to_bytes();
            if !bytes.is_empty() {
                check_message(&bytes);
            }
        }
        svc.shutdown();
    });
}
