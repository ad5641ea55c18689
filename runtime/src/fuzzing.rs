//! The entry points of the fuzz targets under `fuzz/` and of their corpus replay test
//! (`tests/tests/fuzz_corpora.rs`), for the checks that have no public door: opening a
//! `requestState`, reading `inputResponses`, the `Host`/`Origin` check, and a server's engine
//! served one line at a time without a transport ([`Direct`]). Feature `fuzzing`; not part of
//! the API. Each function states what it asserts: a failed assertion is a finding.

use crate::backchannel::Outbound;
use crate::canonical;
use crate::dispatch::{Conn, Engine, Route};
use crate::era::{self, Era, ModernMeta, Signals};
use crate::handler::Handler;
use crate::http::HttpConfig;
use crate::http::guard;
use crate::protocol::{Error, Inbound, JsonObject, Message};
use crate::server::Server;
use crate::state::{self, Binding, Carried, KeyRing, STATE_REJECTED, StateCodec};
use http::{HeaderMap, Uri};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// A server's engine serving one line at a time as the stdio transport serves a line of a
/// connection that has no 2025-11-25 session, without the transport: no pipe, no reader or
/// writer task, no framing, and the request runs in the caller's task (a panic of the handler
/// is the caller's). Built once, it serves any number of lines, so a fuzz target pays for the
/// server once per process instead of once per input.
///
/// What it leaves out is the transport's: the line codec (size limit, UTF-8), the in-flight
/// table (`notifications/cancelled`, reused ids, the in-flight limit) and the 2025-11-25
/// session (`initialize` is answered, but the session it opens is dropped, so what follows is
/// served as 2026-07-28, as on a connection that never initialized). The `stdio` target
/// reaches those.
pub struct Direct<H> {
    engine: Engine<H>,
}

impl<H: Handler> Direct<H> {
    /// The engine of `server`, with everything its builders set.
    pub fn new(server: Server<H>) -> Self {
        Direct {
            engine: server.into_engine(),
        }
    }

    /// Serves `line` (one JSON-RPC message) and returns what stdio would write for it, each
    /// message's JSON text: the notifications the request sent while it ran, then its answer.
    /// Nothing for a blank line, a notification or a response (there is no session for a
    /// response to answer, nor a request in flight to cancel).
    pub async fn serve_line(&self, line: &str) -> Vec<String> {
        let mut written = Vec::new();
        if line.trim().is_empty() {
            return written;
        }
        let msg = match Inbound::parse_str(line) {
            Ok(msg) => msg,
            Err(rej) => {
                written.push(Message::error(rej.id.as_ref(), &rej.error).into_string());
                return written;
            }
        };
        let signals = Signals::of(&msg);
        let Inbound::Request(mut req) = msg else {
            return written;
        };
        let route = match era::select(signals) {
            Era::Initialize => {
                let answer = match self.engine.initialize(&req) {
                    Ok((result, _session)) => Message::response(&req.id, result.as_str()),
                    Err(e) => Message::error(Some(&req.id), &e),
                };
                written.push(answer.into_string());
                return written;
            }
            _ => Route::Modern(ModernMeta::check(req.params.meta.take())),
        };
        let (tx, mut rx) = mpsc::channel::<Message>(256);
        let conn = Conn {
            out: Outbound::Open(tx),
            principal: None,
            cancel: CancellationToken::new(),
            step_up: None,
        };
        // The connection is the request's own, dropped when it is served.
        let served = async move { self.engine.handle(req, route, &conn).await };
        let mut served = std::pin::pin!(served);
        let answer = loop {
            tokio::select! {
                answer = &mut served => break answer,
                Some(note) = rx.recv() => written.push(note.into_string()),
            }
        };
        while let Ok(note) = rx.try_recv() {
            written.push(note.into_string());
        }
        written.extend(answer.map(Message::into_string));
        written
    }
}

/// The clock of [`open_state`], in ms since the epoch.
pub const NOW_MS: u64 = 1_800_000_000_000;

/// What [`open_state`] binds to: `tools/call` of tool `t` with arguments `{}`, no principal,
/// audience `fuzz`.
fn binding() -> Binding {
    Binding {
        method: "tools/call".into(),
        target: "t".into(),
        args_digest: canonical::short_digest(&json!({})),
        principal: None,
        audience: "fuzz".into(),
    }
}

fn codec(keys: &KeyRing) -> StateCodec<'_> {
    StateCodec {
        keys,
        ttl: Duration::from_secs(600),
        max_bytes: 64 * 1024,
        now_ms: NOW_MS,
    }
}

/// Opens `token` as the server would for the fixed binding (`tools/call` of tool `t`,
/// arguments `{}`, audience `fuzz`). Asserts that a refusal is the one frozen `-32602`, and
/// that a state that opens seals again and opens to the same.
pub fn open_state(keys: &KeyRing, token: &Value) -> Result<(), Error> {
    let codec = codec(keys);
    match codec.open(token, &binding()) {
        Err(e) => {
            assert_eq!((e.code, e.message.as_str()), (-32602, STATE_REJECTED));
            assert!(e.data.is_none(), "a refusal says nothing more");
            Err(e)
        }
        Ok(opened) => {
            let carried = opened.carried;
            let again = codec
                .seal(binding(), carried.clone())
                .expect("an opened state seals again");
            let reopened = codec
                .open(&Value::String(again), &binding())
                .expect("a state sealed now opens");
            assert_eq!(reopened.carried, carried, "a state round-trips");
            Ok(())
        }
    }
}

/// The plaintext of a state [`open_state`] accepts (a seed for the fuzzer): round 1, one
/// question `name` asked, a memo entry.
pub fn valid_payload() -> Vec<u8> {
    let mut memo = JsonObject::new();
    memo.insert("step".into(), json!(1));
    let asked = state::Asked {
        wire_key: "name".into(),
        question: state::QuestionId {
            key: "name".into(),
            digest: "00".into(),
        },
    };
    let carried = Carried {
        round: 1,
        asked: vec![asked],
        memo,
        ..Carried::default()
    };
    state::payload_bytes(binding(), carried, NOW_MS + 60_000)
}

/// Reads `params.inputResponses` as a retry's would be read. Asserts that a refusal is a
/// `-32602` whose message is short (it quotes the client's keys only in part).
pub fn input_responses(params: &JsonObject) -> Result<usize, Error> {
    use crate::protocol::{Body, Method, Params};
    let mut params = params.clone();
    params.insert("name".into(), "t".into());
    let parsed = match Params::parse(&Method::ToolsCall, Some(params)).body {
        Body::Target(t) => t.map(|t| t.input_responses),
        other => unreachable!("tools/call params are typed: {other:?}"),
    };
    match parsed {
        Ok(r) => Ok(r.as_ref().map_or(0, JsonObject::len)),
        Err(e) => {
            assert_eq!(e.code, -32602);
            assert!(e.message.len() <= 200, "{} bytes", e.message.len());
            Err(e)
        }
    }
}

/// Whether the default configuration accepts `host` as `Host`. Asserts that what it accepts
/// is exactly `localhost`, `127.0.0.1` or `[::1]` (any case), with at most a port.
pub fn default_host_allowed(host: &str) -> bool {
    let ok = guard::host_allowed(&HttpConfig::default().hosts, host);
    if ok {
        assert!(is_local_authority(host), "accepted {host:?}");
    }
    ok
}

/// The `Host`/`Origin` check of the default configuration on these headers. Asserts that
/// when it passes, `Host` is a local authority and `Origin` (if any) is
/// `scheme://local-authority`.
pub fn check_origin(uri: &Uri, headers: &HeaderMap) -> Result<(), &'static str> {
    let r = guard::check_origin(&HttpConfig::default(), uri, headers);
    if r.is_ok() {
        let host = uri
            .authority()
            .map(|a| a.as_str().to_owned())
            .or_else(|| guard::header_str(headers, http::header::HOST).map(str::to_owned));
        assert!(
            host.as_deref().is_some_and(is_local_authority),
            "accepted Host {host:?}"
        );
        if let Some(o) = headers.get(http::header::ORIGIN) {
            let o = o.to_str().expect("an accepted Origin is text").trim();
            let authority = o.split_once("://").map(|(_, a)| a);
            assert!(
                authority.is_some_and(is_local_authority),
                "accepted Origin {o:?}"
            );
        }
    }
    r
}

/// `localhost`, `127.0.0.1` or `[::1]` (ASCII case-insensitively), then at most `:port`.
fn is_local_authority(text: &str) -> bool {
    let text = text.trim().to_ascii_lowercase();
    let (host, port) = match text.strip_prefix("[::1]") {
        Some(rest) => ("[::1]", rest),
        None => text.split_at(text.find(':').unwrap_or(text.len())),
    };
    let port_ok = match port.strip_prefix(':') {
        None => port.is_empty(),
        Some(p) => {
            !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && p.parse::<u16>().is_ok()
        }
    };
    matches!(host, "localhost" | "127.0.0.1" | "[::1]") && port_ok
}
