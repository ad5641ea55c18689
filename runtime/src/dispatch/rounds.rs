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
use crate::state::{Binding, Carried, StateCodec};
use serde::Serialize;
use serde_json::Value;

/// A method's binding and the ask state its earlier rounds carried.
pub(super) struct Bound<'a> {
    /// What the request is, for binding state to it.
    pub(super) binding: Bind<'a>,
    /// The answers and memo values so far.
    pub(super) asks: AskState,
    /// The round being served (0 for the first call).
    pub(super) round: u32,
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
    /// and binds its `requestState` (2026-07-28), and matches the responses to the questions
    /// the last round asked. On 2025-11-25 the handler asks for real, so there are no rounds.
    pub(super) fn open_rounds<'a>(
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
        let mut carried = self.state_codec().open(token, &binding.binding())?;
        tracing::Span::current().record("round", carried.round);
        let (round, asked) = (carried.round, std::mem::take(&mut carried.asked));
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
        })
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
            return Err(Error::invalid_params(format!(
                "The request needed more than {} rounds of input; start it again",
                cfg.max_rounds
            )));
        }
        let (requests, carried) = cx.asks().next_round(cx.round + 1, waited);
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
