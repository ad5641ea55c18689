//! The Multi Round-Trip Request bookkeeping of 2026-07-28 (design §6): opening and binding a
//! retry's `requestState`, matching its `inputResponses` to the questions asked, and sealing
//! the next round's state into an `InputRequiredResult`. The token format is `state/`'s.

use super::drive::{Driven, ended, settle};
use super::{Answered, ClientFacts, Conn, Engine};
use crate::canonical;
use crate::cx::{AskState, Cx, Ending};
use crate::handler::Handler;
use crate::protocol::{
    CallToolResult, Error, GetPromptResult, InputRequiredResult, JsonObject, ReadResourceResult,
    Request, echo,
};
use crate::state::{Binding, Carried, Opened, STATE_REJECTED, StateCodec};
use serde::Serialize;
use serde_json::Value;
use std::sync::OnceLock;

/// A method's binding and the ask state its earlier rounds carried.
pub(super) struct Bound<'a> {
    /// What the request is, for binding state to it.
    pub(super) binding: Bind<'a>,
    /// The answers and memo values so far.
    pub(super) asks: AskState,
    /// The round being served (0 for the first call).
    pub(super) round: u32,
    /// The flow's id, when a `requestState` carried it (a first round mints one when needed).
    flow: Option<String>,
}

/// What a request's `requestState` is bound to, borrowed from the request. The [`Binding`],
/// with the digest of the canonical arguments, is built only when state is opened or sealed:
/// a call that neither carries state nor asks does not pay for it.
#[derive(Clone, Copy)]
pub(super) struct Bind<'a> {
    method: &'a str,
    target: &'a str,
    args: &'a Value,
    principal: Option<&'a str>,
    audience: &'a str,
}

impl Bind<'_> {
    /// The binding, digest included.
    fn binding(&self) -> Binding {
        Binding {
            method: self.method.to_owned(),
            target: self.target.to_owned(),
            args_digest: canonical::short_digest(self.args),
            principal: self.principal.map(str::to_owned),
            audience: self.audience.to_owned(),
        }
    }
}

impl<H: Handler> Engine<H> {
    /// Opens the rounds of a method that may ask for input: checks its `inputResponses`, opens
    /// and binds its `requestState` (2026-07-28), takes the sealed round once through the
    /// replay guard, and matches the responses to the questions the last round asked. On
    /// 2025-11-25 the handler asks for real, so there are no rounds.
    pub(super) async fn open_rounds<'a>(
        &'a self,
        req: &'a Request,
        conn: &'a Conn,
        facts: &ClientFacts,
        target: &'a str,
        args: &'a Value,
    ) -> Result<Bound<'a>, Error> {
        let binding = Bind {
            method: req.method.as_str(),
            target,
            args,
            principal: conn.principal.as_ref().map(|p| p.id()),
            audience: &self.config.audience,
        };
        let fresh = |unbound| Bound {
            binding,
            asks: AskState::asking(Carried::default(), unbound),
            round: 0,
            flow: None,
        };
        if !facts.revision.is_modern() {
            return Ok(fresh(JsonObject::new()));
        }
        let params = req.params.as_ref();
        let responses = input_responses(params)?;
        let Some(token) = params.and_then(|p| p.get("requestState")) else {
            // No question was rendered for these answers yet: they are matched by key alone to
            // what this pass asks (unknown keys are ignored, MRTR § Error Handling).
            return Ok(fresh(responses.cloned().unwrap_or_default()));
        };
        let opened = self.state_codec().open(token, &binding.binding())?;
        self.first_use(&opened).await?;
        let mut carried = opened.carried;
        tracing::Span::current().record("round", carried.round);
        let (round, asked) = (carried.round, std::mem::take(&mut carried.asked));
        let flow = Some(std::mem::take(&mut carried.flow));
        let mut asks = AskState::asking(carried, JsonObject::new());
        for question in asked {
            if let Some(v) = responses.and_then(|r| r.get(&question.wire_key)) {
                asks.accept(question, v.clone());
            }
        }
        Ok(Bound {
            binding,
            asks,
            round,
            flow,
        })
    }

    /// Takes the opened round through the replay guard, if there is one: a round taken before
    /// is the frozen `-32602` (the reason goes to the log), a guard that cannot tell refuses
    /// the retry with `-32603` and its message. Nothing has run yet either way.
    async fn first_use(&self, opened: &Opened) -> Result<(), Error> {
        let Some(guard) = &self.config.replay else {
            return Ok(());
        };
        let round = opened.round_id();
        let now_ms = self.config.clock.now_ms();
        match guard.first_use_ms(&round, opened.expires_ms, now_ms).await {
            Ok(true) => Ok(()),
            Ok(false) => {
                tracing::warn!(
                    reason = "already taken (a replayed retry)",
                    round,
                    "requestState rejected"
                );
                Err(Error::invalid_params(STATE_REJECTED))
            }
            Err(e) => {
                tracing::warn!(error = %e, round, "the replay guard refused a retry");
                Err(Error::internal(e.message().to_owned()))
            }
        }
    }

    /// The context of a method that may ask, with what its earlier rounds carried, and the
    /// binding its next round's state is sealed for.
    pub(super) fn round_cx<'a>(
        &self,
        req: &Request,
        conn: &Conn,
        facts: ClientFacts,
        target: &str,
        bound: Bound<'a>,
    ) -> (Cx, Bind<'a>) {
        let mut cx = self.cx(req, conn, facts, Some(target), bound.asks, bound.round);
        if let Some(flow) = bound.flow {
            cx.flow_id = OnceLock::from(flow);
        }
        (cx, bound.binding)
    }

    /// Turns the end of a method that may ask for input into its answer.
    pub(super) fn finish_rounds<T: Serialize + EndsWith>(
        &self,
        cx: &Cx,
        binding: Bind<'_>,
        out: Driven<Result<T, Error>>,
        adjust: impl FnOnce(T) -> T,
    ) -> Answered {
        let result = match out {
            Driven::Done(r) => r?,
            Driven::InputRequired => return self.input_required(cx, binding, false).map(Some),
            Driven::Ended(Ending::Retry) if cx.revision.is_modern() => {
                return self.input_required(cx, binding, true).map(Some);
            }
            Driven::Ended(ending) => match T::ends_with(ending) {
                Ok(t) => t,
                Err(ending) => return ended(ending),
            },
            other => return settle(other),
        };
        let from_answers = cx.round > 0 || !cx.asks().answers.is_empty();
        self.complete(&cx.method, cx.revision, adjust(result), from_answers)
    }

    /// The `InputRequiredResult` of a pass that recorded questions, or (`waited`) of one that
    /// only waits for an out-of-band flow: then it carries no `inputRequests`, and it does not
    /// count towards the round cap (the flow's time budget bounds such rounds).
    fn input_required(&self, cx: &Cx, binding: Bind<'_>, waited: bool) -> Result<Value, Error> {
        let cfg = &self.config;
        let asked_rounds = cx.round.saturating_sub(cx.asks().waits);
        if !waited && asked_rounds + 1 > cfg.max_rounds {
            let mut message = format!(
                "The request needed more than {} rounds of input; start it again",
                cfg.max_rounds
            );
            if let Some(problem) = &cx.asks().last_problem {
                message.push_str(&format!(" ({problem})"));
            }
            return Err(Error::invalid_params(message));
        }
        let (requests, mut carried) = cx.asks().next_round(cx.round + 1, waited);
        carried.flow = cx.flow_id().to_owned();
        let state = self.state_codec().seal(binding.binding(), carried)?;
        let requests = (!waited).then_some(requests);
        InputRequiredResult::new(&cfg.info.implementation, requests, state).to_value()
    }

    /// Seals and opens this server's `requestState`, as of now.
    fn state_codec(&self) -> StateCodec<'_> {
        let cfg = &self.config;
        StateCodec {
            keys: &cfg.keys,
            ttl: cfg.state_ttl,
            max_bytes: cfg.max_state_bytes,
            now_ms: cfg.clock.now_ms(),
        }
    }
}

/// `inputResponses`: an object whose values are objects (`-32602` otherwise), if present.
pub(crate) fn input_responses(params: Option<&JsonObject>) -> Result<Option<&JsonObject>, Error> {
    let responses = match params.and_then(|p| p.get("inputResponses")) {
        None => return Ok(None),
        Some(Value::Object(m)) => m,
        Some(_) => return Err(Error::invalid_params("`inputResponses` must be an object")),
    };
    match responses.iter().find(|(_, v)| !v.is_object()) {
        Some((key, _)) => Err(Error::invalid_params(format!(
            "`inputResponses.{}` must be an object",
            echo(key)
        ))),
        None => Ok(Some(responses)),
    }
}

/// What a method's result can be when the handler ended the request through its context: a
/// tool turns a readable failure into an `isError` result and takes a result of its own; other
/// methods answer the ending as an error.
pub(super) trait EndsWith: Sized {
    /// The result `ending` comes to, or the ending back when it is not a result.
    fn ends_with(ending: Ending) -> Result<Self, Ending> {
        Err(ending)
    }
}

impl EndsWith for CallToolResult {
    fn ends_with(ending: Ending) -> Result<Self, Ending> {
        match ending {
            Ending::Failed(why) => Ok(CallToolResult::error(why)),
            Ending::Result(result) => Ok(result),
            other => Err(other),
        }
    }
}

impl EndsWith for GetPromptResult {}
impl EndsWith for ReadResourceResult {}
