//! The multi-round flow both frameworks serve for `benches/rounds.rs` and the `state_size`
//! binary, and the client side of it.
//!
//! The tool (`confirm_steps` in Rondo, `confirm_steps_mrtr` in rmcp) takes `questions` and
//! `memo_bytes`. On its first round it computes a `memo_bytes`-long text (kept across rounds:
//! Rondo's `cx.memo`, rmcp's signed state) and asks `questions` form questions at once
//! (`{"ok": bool}` each); the client's retry answers all of them with the `requestState`, and
//! the tool answers [`summary`]: how many were confirmed, the memo's length and a checksum of
//! it, so a memo that came back changed, cut or not at all fails the check.

use crate::wire::{Client, FORM_CAPS, Rev, pipes, result_text};
use rmcp::ServiceExt;
use rondo_mcp::Handler;
use rondo_mcp::Server;
use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::Validator;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, DuplexStream};

/// A client over in-memory pipes.
pub type PipeClient = Client<DuplexStream, DuplexStream>;

/// A 2026-07-28 client of `server` (spawned on the current runtime) over in-memory pipes,
/// every line checked against the official schema when `checked`.
pub async fn connect_rondo<H: Handler>(server: Server<H>, checked: bool) -> PipeClient {
    let (wire, r, w) = pipes();
    tokio::spawn(server.serve_io(r, w));
    Client::connect(validated(wire, checked), Rev::Modern, FORM_CAPS).await
}

/// The same for an rmcp server.
pub async fn connect_rmcp<S: rmcp::ServerHandler>(server: S, checked: bool) -> PipeClient {
    let (wire, r, w) = pipes();
    tokio::spawn(async move {
        if let Ok(running) = server.serve((r, w)).await {
            let _ = running.waiting().await;
        }
    });
    Client::connect(validated(wire, checked), Rev::Modern, FORM_CAPS).await
}

fn validated(
    wire: crate::wire::Wire<DuplexStream, DuplexStream>,
    checked: bool,
) -> crate::wire::Wire<DuplexStream, DuplexStream> {
    if checked {
        wire.checked(Validator::new(Revision::V2026_07_28))
    } else {
        wire
    }
}

/// The most questions the tool asks in one round (the benchmarks ask 1, 4 or 16).
pub const MAX_QUESTIONS: u32 = 64;

/// The largest memo the tool computes (the benchmarks carry 0, 1 KiB or 32 KiB; Rondo's state
/// is capped at 64 KiB by default).
pub const MAX_MEMO_BYTES: u32 = 48 * 1024;

/// The memoised value: `len` bytes of printable ASCII (no JSON escaping), not all alike.
pub fn blob(len: usize) -> String {
    let mut x: u32 = 0x9e37_79b9;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            char::from(b'a' + (x % 26) as u8)
        })
        .collect()
}

/// FNV-1a of `s`: the final result names it, so the memo is checked byte for byte.
pub fn checksum(s: &str) -> u32 {
    s.bytes().fold(0x811c_9dc5, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The tool's final text when `confirmed` of `questions` were confirmed and `memo` came back.
pub fn summary(confirmed: usize, questions: u32, memo: &str) -> String {
    format!(
        "{confirmed} of {questions} confirmed; memo {} bytes, checksum {:08x}",
        memo.len(),
        checksum(memo)
    )
}

/// The tool's arguments.
pub fn args(questions: u32, memo_bytes: u32) -> String {
    format!(r#"{{"questions":{questions},"memo_bytes":{memo_bytes}}}"#)
}

/// What a first round answered: the retry's extra params and the `requestState` alone.
#[derive(Debug, Clone)]
pub struct FirstRound {
    /// `,"inputResponses":{..},"requestState":".."`: every question answered `{"ok": true}`.
    pub extra: String,
    /// The sealed `requestState`, as sent.
    pub state: String,
}

/// 2026-07-28, the first round: `tool` must answer an `InputRequiredResult` with exactly
/// `questions` form questions and a `requestState`.
pub async fn first_round<W, R>(
    c: &mut Client<W, R>,
    tool: &str,
    questions: u32,
    memo_bytes: u32,
) -> FirstRound
where
    W: AsyncWrite + Unpin,
    R: AsyncRead + Unpin,
{
    let id = c.id();
    let line = c.call_line(id, tool, &args(questions, memo_bytes), "");
    let answer = c.wire.request(&line).await;
    assert_eq!(answer["id"], id, "{answer}");
    let result = &answer["result"];
    assert_eq!(result["resultType"], "input_required", "{answer}");
    let state = result["requestState"].as_str().expect("a requestState");
    let asked = result["inputRequests"].as_object().expect("inputRequests");
    assert_eq!(asked.len(), questions as usize, "{answer}");
    let mut responses = String::with_capacity(asked.len() * 64);
    for (i, (key, request)) in asked.iter().enumerate() {
        assert_eq!(request["method"], "elicitation/create", "{answer}");
        if i > 0 {
            responses.push(',');
        }
        responses.push_str(&Value::from(key.as_str()).to_string());
        responses.push_str(r#":{"action":"accept","content":{"ok":true}}"#);
    }
    let extra = format!(
        r#","inputResponses":{{{responses}}},"requestState":{}"#,
        Value::from(state)
    );
    FirstRound {
        extra,
        state: state.to_owned(),
    }
}

/// 2026-07-28, the retry with `first`'s answers: must complete with every question confirmed
/// and the memo intact.
pub async fn retry<W, R>(
    c: &mut Client<W, R>,
    tool: &str,
    questions: u32,
    memo_bytes: u32,
    first: &FirstRound,
) where
    W: AsyncWrite + Unpin,
    R: AsyncRead + Unpin,
{
    let id = c.id();
    let line = c.call_line(id, tool, &args(questions, memo_bytes), &first.extra);
    let answer = c.wire.request(&line).await;
    assert_eq!(answer["id"], id, "{answer}");
    let want = summary(questions as usize, questions, &blob(memo_bytes as usize));
    assert_eq!(result_text(&answer), Some(want.as_str()), "{answer}");
}

/// The whole flow, first round and retry, checked.
pub async fn round_trip<W, R>(c: &mut Client<W, R>, tool: &str, questions: u32, memo_bytes: u32)
where
    W: AsyncWrite + Unpin,
    R: AsyncRead + Unpin,
{
    let first = first_round(c, tool, questions, memo_bytes).await;
    retry(c, tool, questions, memo_bytes, &first).await;
}
