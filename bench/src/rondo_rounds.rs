//! The Rondo server of the multi-round benchmarks: `confirm_steps` asks N form questions in one
//! round (`join_all` over `cx.ask`, as `tokio::join!` would for a fixed number) and keeps a
//! memoised text across the round (`cx.memo`). See [`crate::rounds`].

use crate::rounds::{MAX_MEMO_BYTES, MAX_QUESTIONS, blob, summary};
use futures_util::future::join_all;
use rondo_mcp::prelude::*;
use rondo_mcp::state::KeyRing;
use rondo_mcp::{Answer, Elicit, Form, elicit, tool, tools};

/// One of the questions.
#[derive(Elicit)]
pub struct Confirm {
    /// Go ahead?
    pub ok: bool,
}

/// Asks to confirm step `step`. One question function asked with N inputs: each rendering is
/// its own question (the wire keys get the rendering's digest).
#[elicit(form, fallback = refuse)]
fn confirm_step(step: u32) -> Form<Confirm> {
    Form::new(format!("Run step {step}?"))
}

/// Asks to confirm `questions` steps at once, carrying a `memo_bytes` memo across the round.
#[tool(asks = [confirm_step])]
async fn confirm_steps(cx: &Cx, questions: u32, memo_bytes: u32) -> Result<String, String> {
    if questions > MAX_QUESTIONS || memo_bytes > MAX_MEMO_BYTES {
        return Err(format!(
            "at most {MAX_QUESTIONS} questions and {MAX_MEMO_BYTES} memo bytes"
        ));
    }
    let memo = match memo_bytes {
        0 => String::new(),
        n => {
            cx.memo("blob", async { Ok::<_, String>(blob(n as usize)) })
                .await?
        }
    };
    let answers = join_all((0..questions).map(|i| cx.ask(confirm_step(i)))).await;
    let confirmed = answers
        .iter()
        .filter(|a| matches!(a, Answer::Accept(c) if c.ok))
        .count();
    Ok(summary(confirmed, questions, &memo))
}

/// The router: `confirm_steps` alone.
pub fn router() -> Router {
    Router::new(ServerInfo::new("rondo-bench-rounds", "0.0.0")).tools(tools![confirm_steps])
}

/// The server as an application builds it: a random key ring, the replay guard on (each
/// iteration of the benchmark is a fresh flow, so nothing is replayed). Its `requestState`
/// lives 2 s instead of the default 10 min: the in-memory guard remembers every answered round
/// until its state expires, at most 65,536 at once, and criterion runs tens of thousands of
/// rounds a second, so with the default the guard is full within seconds and refuses the
/// next round (as it should). With 2 s it holds what a server answering that fast would hold
/// for that TTL, forgetting the expired ones as it goes, and the cost measured stays the
/// guard's steady-state cost.
pub fn server() -> Server<Router> {
    Server::new(router()).state_ttl(std::time::Duration::from_secs(2))
}

/// The same with a known key ring, so `state_size` can open what the server sealed.
pub fn server_with_keys(keys: KeyRing) -> Server<Router> {
    Server::new(router()).state_keys(keys)
}
