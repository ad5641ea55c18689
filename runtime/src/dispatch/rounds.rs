//! Running a handler's future, and the Multi Round-Trip Request bookkeeping of 2026-07-28:
//! opening and binding `requestState`, matching `inputResponses` to the questions asked, and
//! sealing the next round's state into an `InputRequiredResult`.

use super::{Answered, Conn, Origin, server_info_meta};
use crate::canonical;
use crate::cx::{AskState, Cx};
use crate::handler::{CacheScope, Handler};
use crate::protocol::{Error, JsonObject, Request};
use crate::server::Server;
use crate::state::{self, Answer, Asked, Binding, StatePayload};
use serde::Serialize;
use serde_json::{Value, json};
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::pin;
use std::task::Poll;

/// What a handler's future came to.
pub(super) enum Driven<T> {
    Done(T),
    InputRequired,
    Aborted(Error),
    Panicked(String),
    Cancelled,
}

/// Polls a handler future to completion, a recorded question (2026-07-28), an abort, a panic
/// or cancellation. After every poll that returns `Pending`, the questions the pass recorded
/// are checked: if there are any, the future is dropped (the tool's locals with it) and the
/// request answers `InputRequiredResult` with all of them.
pub(super) async fn drive<F: Future>(cx: &Cx, fut: F) -> Driven<F::Output> {
    let mut fut = pin!(fut);
    let run = std::future::poll_fn(|tcx| {
        match std::panic::catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(tcx))) {
            Ok(Poll::Ready(v)) => Poll::Ready(Driven::Done(v)),
            Ok(Poll::Pending) => {
                let mut st = cx.state();
                if let Some(e) = st.abort.take() {
                    Poll::Ready(Driven::Aborted(e))
                } else if !st.questions.is_empty() {
                    Poll::Ready(Driven::InputRequired)
                } else {
                    Poll::Pending
                }
            }
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "non-string panic payload".into());
                Poll::Ready(Driven::Panicked(msg))
            }
        }
    });
    tokio::select! {
        biased;
        _ = cx.cancel.cancelled() => Driven::Cancelled,
        d = run => d,
    }
}

impl<H: Handler> Server<H> {
    /// Turns the end of a multi-round-capable method into its answer.
    pub(super) fn finish_mrtr<T: Serialize>(
        &self,
        cx: &Cx,
        binding: Binding,
        out: Driven<Result<T, Error>>,
        adjust: impl FnOnce(T) -> T,
    ) -> Answered {
        let cacheable = cx.method == "resources/read";
        match out {
            Driven::Done(r) => {
                let v = serde_json::to_value(adjust(r?))
                    .map_err(|e| Error::internal(format!("result does not serialise: {e}")))?;
                let mut v = self.complete(cx.revision, v, cacheable);
                // A result built from the client's answers must not be cached (MCP 2026-07-28
                // § Caching: retries carrying inputResponses/requestState).
                if cacheable
                    && cx.revision.is_modern()
                    && (cx.round > 0 || !cx.state().answers.is_empty())
                {
                    v["ttlMs"] = json!(0);
                    v["cacheScope"] = json!(CacheScope::Private.as_str());
                }
                Ok(Some(v))
            }
            Driven::InputRequired => self.input_required(cx, binding).map(Some),
            other => settle(other),
        }
    }

    /// Opens and checks the `requestState` and `inputResponses` of a multi-round method.
    pub(super) fn rounds(
        &self,
        req: &Request,
        conn: &Conn,
        origin: &Origin,
        target: &str,
        args: &Value,
    ) -> Result<Bound, Error> {
        let binding = Binding {
            method: req.method.clone(),
            target: target.to_owned(),
            args_digest: canonical::short_digest(args),
            principal: conn.principal.as_ref().map(|p| p.id().to_owned()),
            audience: self.config.audience.clone(),
        };
        let mut ask = AskState {
            mrtr: true,
            ..AskState::default()
        };
        if !origin.revision.is_modern() {
            return Ok(Bound {
                binding,
                ask,
                round: 0,
            });
        }
        let params = req.params.as_ref();
        let responses = match params.and_then(|p| p.get("inputResponses")) {
            None => None,
            Some(Value::Object(m)) => Some(m),
            Some(_) => return Err(Error::invalid_params("`inputResponses` must be an object")),
        };
        if let Some((key, _)) = responses
            .into_iter()
            .flatten()
            .find(|(_, v)| !v.is_object())
        {
            return Err(Error::invalid_params(format!(
                "`inputResponses.{key}` must be an object"
            )));
        }
        let Some(token) = params.and_then(|p| p.get("requestState")) else {
            // No question was rendered for these answers yet: they are matched by key alone to
            // what this pass asks (unknown keys are ignored, MRTR § Error Handling).
            ask.unbound = responses.cloned().unwrap_or_default();
            return Ok(Bound {
                binding,
                ask,
                round: 0,
            });
        };
        let payload = self.open_state(token, &binding).map_err(|why| {
            tracing::warn!(reason = why, "requestState rejected");
            state::rejected()
        })?;
        tracing::Span::current().record("round", payload.r);
        ask.answers = payload.ans;
        ask.memo = payload.memo;
        for asked in payload.q {
            if let Some(v) = responses.and_then(|r| r.get(&asked.w)) {
                ask.answers.retain(|a| !(a.k == asked.k && a.d == asked.d));
                ask.answers.push(Answer {
                    k: asked.k,
                    d: asked.d,
                    v: v.clone(),
                });
            }
        }
        Ok(Bound {
            binding,
            ask,
            round: payload.r,
        })
    }

    fn open_state(&self, token: &Value, binding: &Binding) -> Result<StatePayload, &'static str> {
        let token = token.as_str().ok_or("not a string")?;
        // A sealed token is base64 of 45 bytes of framing plus the payload.
        if token.len() > (self.config.max_state_bytes + 45).div_ceil(3) * 4 {
            return Err("too long");
        }
        let plain = self.config.keys.open(token)?;
        let payload: StatePayload =
            serde_json::from_slice(&plain).map_err(|_| "malformed payload")?;
        state::check_binding(&payload, binding, self.config.clock.now_ms())?;
        Ok(payload)
    }

    /// Builds the `InputRequiredResult` of a pass that recorded questions.
    fn input_required(&self, cx: &Cx, binding: Binding) -> Result<Value, Error> {
        let cfg = &self.config;
        if cx.round + 1 > cfg.max_rounds {
            return Err(Error::invalid_params(format!(
                "The request needed more than {} rounds of input; start it again",
                cfg.max_rounds
            )));
        }
        let st = cx.state();
        let mut requests = JsonObject::new();
        let mut asked = Vec::with_capacity(st.questions.len());
        for q in &st.questions {
            let collides = st.questions.iter().filter(|o| o.key == q.key).count() > 1;
            let wire = if collides {
                format!("{}~{}", q.key, &q.digest[..8])
            } else {
                q.key.clone()
            };
            requests.insert(wire.clone(), q.request.to_wire());
            asked.push(Asked {
                w: wire,
                k: q.key.clone(),
                d: q.digest.clone(),
            });
        }
        let payload = StatePayload {
            exp: cfg.clock.now_ms() + cfg.state_ttl.as_millis() as u64,
            aud: binding.audience,
            m: binding.method,
            t: binding.target,
            a: binding.args_digest,
            p: binding.principal,
            r: cx.round + 1,
            q: asked,
            ans: st.answers.clone(),
            memo: st.memo.clone(),
        };
        let plain =
            serde_json::to_vec(&payload).map_err(|e| Error::internal(format!("state: {e}")))?;
        if plain.len() > cfg.max_state_bytes {
            tracing::error!(
                bytes = plain.len(),
                cap = cfg.max_state_bytes,
                "requestState too large"
            );
            return Err(Error::internal("The request's carried state is too large"));
        }
        let mut r = json!({
            "resultType": "input_required",
            "inputRequests": requests,
            "requestState": cfg.keys.seal(&plain),
        });
        if let Some(obj) = r.as_object_mut() {
            server_info_meta(obj, &cfg.info.implementation);
        }
        Ok(r)
    }
}

/// A multi-round method's binding and opened state.
pub(super) struct Bound {
    pub(super) binding: Binding,
    pub(super) ask: AskState,
    pub(super) round: u32,
}

/// The non-`Done` ends of a method that cannot ask for input.
pub(super) fn settle<T>(d: Driven<T>) -> Answered {
    match d {
        Driven::Done(_) | Driven::InputRequired => Err(Error::internal(
            "this method cannot ask the client for input",
        )),
        Driven::Aborted(e) => Err(e),
        Driven::Panicked(msg) => {
            tracing::error!(panic = %msg, "handler panicked");
            Err(Error::internal("The handler failed with an internal error"))
        }
        Driven::Cancelled => Ok(None),
    }
}
