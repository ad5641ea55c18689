//! The Multi Round-Trip Request bookkeeping of 2026-07-28 (design §6): opening and binding a
//! retry's `requestState`, matching its `inputResponses` to the questions asked, and sealing
//! the next round's state into an `InputRequiredResult`. The token format is `state/`'s.

use super::drive::{Driven, drive, ended, settle};
use super::{Answered, ClientFacts, Conn, Engine, Parsed};
use crate::canonical;
use crate::cx::{AskState, Cx, Ending};
use crate::handler::Handler;
use crate::observe::Pass;
use crate::protocol::{
    self, CallToolResult, Error, GetPromptResult, InputRequiredResult, JsonObject, Method,
    ReadResourceResult, RequestId, Shape, TargetParams, Written,
};
use crate::state::{Binding, Carried, Opened, RoundUse, STATE_REJECTED, StateCodec, fingerprint};
use serde::Serialize;
use std::future::Future;
use std::pin::pin;

/// The ask state a request's earlier rounds carried.
pub(super) struct Bound {
    /// The answers and memo values so far.
    pub(super) asks: AskState,
    /// The round being served (0 for the first call).
    pub(super) round: u32,
    /// The flow's id, when a `requestState` carried it (a first round mints one when needed).
    pub(super) flow: Option<String>,
}

/// What a request's `requestState` is bound to, borrowed from the request. The [`Binding`],
/// with the digest of the canonical arguments, is built only when state is opened or sealed:
/// a call that neither carries state nor asks does not pay for it.
#[derive(Clone, Copy)]
struct Bind<'a> {
    method: &'a str,
    target: &'a str,
    args: &'a JsonObject,
    principal: Option<&'a str>,
    audience: &'a str,
}

impl Bind<'_> {
    /// The binding, digest included.
    fn binding(&self) -> Binding {
        Binding {
            method: self.method.to_owned(),
            target: self.target.to_owned(),
            args_digest: canonical::short_digest_of(self.args),
            principal: self.principal.map(str::to_owned),
            audience: self.audience.to_owned(),
        }
    }
}

/// A method that may ask for input, by the result it answers: how its handler is called and
/// how its result fits the request's revision. `tools/call`, `prompts/get` and
/// `resources/read` are served by one path ([`Engine::rounds`]) through this trait.
pub(super) trait Asking: Serialize + Shape + Sized + Send {
    /// Calls the handler for the request `cx` is the context of.
    fn run<'a, H: Handler>(
        handler: &'a H,
        cx: &'a Cx,
    ) -> impl Future<Output = Result<Self, Error>> + Send + 'a;

    /// What a panic of the handler comes to (the request's error, unless overridden).
    fn panicked(target: &str, msg: String) -> Driven<Result<Self, Error>> {
        let _ = target;
        Driven::Panicked(msg)
    }

    /// The result `ending` comes to, or the ending back when it is not a result: a tool
    /// turns a readable failure into an `isError` result and takes a result of its own;
    /// other methods answer the ending as an error.
    fn ends_with(ending: Ending) -> Result<Self, Ending> {
        Err(ending)
    }
}

impl Asking for CallToolResult {
    fn run<'a, H: Handler>(
        handler: &'a H,
        cx: &'a Cx,
    ) -> impl Future<Output = Result<Self, Error>> + Send + 'a {
        handler.call_tool(cx, cx.target(), &cx.req.arguments)
    }

    /// A tool's panic is an execution error the model can read, not a protocol error.
    fn panicked(target: &str, msg: String) -> Driven<Result<Self, Error>> {
        tracing::error!(tool = target, panic = %msg, "tool panicked");
        Driven::Done(Ok(CallToolResult::error(format!(
            "Tool `{target}` failed with an internal error"
        ))))
    }

    fn ends_with(ending: Ending) -> Result<Self, Ending> {
        match ending {
            Ending::Failed(why) => Ok(CallToolResult::error(why)),
            Ending::Result(result) => Ok(result),
            other => Err(other),
        }
    }
}

impl Asking for GetPromptResult {
    fn run<'a, H: Handler>(
        handler: &'a H,
        cx: &'a Cx,
    ) -> impl Future<Output = Result<Self, Error>> + Send + 'a {
        handler.get_prompt(cx, cx.target(), &cx.req.arguments)
    }
}

impl Asking for ReadResourceResult {
    fn run<'a, H: Handler>(
        handler: &'a H,
        cx: &'a Cx,
    ) -> impl Future<Output = Result<Self, Error>> + Send + 'a {
        handler.read_resource(cx, cx.target())
    }
}

impl<H: Handler> Engine<H> {
    /// Serves a method that may ask for input, over all its rounds: opens what earlier rounds
    /// carried, runs the handler once with the request's facts, and answers its result or the
    /// next round's `InputRequiredResult`.
    pub(super) async fn rounds<T: Asking>(
        &self,
        id: RequestId,
        method: Method,
        conn: &Conn,
        facts: ClientFacts,
        mut params: TargetParams,
    ) -> Answered {
        // In a block of its own: what the rounds carried is moved into the context, and a
        // local whose storage outlived the handler's await would still take its size in this
        // future (as would the params, had they a binding here).
        let cx = {
            let bound = self.open_rounds(&method, conn, &facts, &mut params).await?;
            let parsed = Parsed {
                id,
                method,
                target: Some(params.target),
                arguments: params.arguments,
                round: bound.round,
                flow: bound.flow,
            };
            self.cx(parsed, conn, facts, bound.asks)
        };
        let out = match drive(&cx, pin!(T::run(&*self.handler, &cx))).await {
            Driven::Panicked(msg) => T::panicked(cx.target(), msg),
            other => other,
        };
        if matches!(out, Driven::InputRequired | Driven::Ended(Ending::Retry)) && cx.keeps_once() {
            // The next round's state outlives what `cx.once` recorded so far: renew it first
            // (boxed: rare, and its future would size every request's, design §23).
            Box::pin(cx.keep_once()).await?;
        }
        self.finish_rounds(&cx, out)
    }

    /// Opens the rounds of a method that may ask for input: opens and binds its
    /// `requestState` (2026-07-28), takes the sealed round once through the replay guard, and
    /// matches the responses to the questions the last round asked. On 2025-11-25 the handler
    /// asks for real, so there are no rounds.
    pub(super) async fn open_rounds(
        &self,
        method: &Method,
        conn: &Conn,
        facts: &ClientFacts,
        params: &mut TargetParams,
    ) -> Result<Bound, Error> {
        let fresh = |unbound| Bound {
            asks: AskState::asking(Carried::default(), unbound),
            round: 0,
            flow: None,
        };
        if !facts.revision.is_modern() {
            return Ok(fresh(JsonObject::new()));
        }
        let responses = params.input_responses.take();
        let Some(token) = &params.request_state else {
            // No question was rendered for these answers yet: they are matched by key alone to
            // what this pass asks (unknown keys are ignored, MRTR § Error Handling).
            return Ok(fresh(responses.unwrap_or_default()));
        };
        let binding = Bind {
            method: method.as_str(),
            target: &params.target,
            args: &params.arguments,
            principal: conn.principal.as_ref().map(|p| p.key()),
            audience: &self.config.audience,
        };
        let opened = self.state_codec().open(token, &binding.binding())?;
        let mut responses = responses.unwrap_or_default();
        // Boxed: only a retry takes a round, and this future would size every request's.
        Box::pin(self.take_round(&opened, token, &responses)).await?;
        let mut carried = opened.carried;
        tracing::Span::current().record("round", carried.round);
        let (round, asked) = (carried.round, std::mem::take(&mut carried.asked));
        let flow = Some(std::mem::take(&mut carried.flow));
        let mut asks = AskState::asking(carried, JsonObject::new());
        for question in asked {
            if let Some(v) = responses.remove(&question.wire_key) {
                asks.accept(question, v);
            }
        }
        Ok(Bound { asks, round, flow })
    }

    /// Takes the opened round through the replay guard, if there is one, for this request's
    /// fingerprint (its state and its answers to the round's questions): the first time, or
    /// the same request again, it goes on; a round taken with other answers is the frozen
    /// `-32602` (the reason goes to the log); a guard that cannot tell refuses the retry with
    /// `-32603` and its message. Nothing has run yet either way.
    async fn take_round(
        &self,
        opened: &Opened,
        token: &serde_json::Value,
        responses: &JsonObject,
    ) -> Result<(), Error> {
        let Some(guard) = &self.config.replay else {
            return Ok(());
        };
        let round = opened.round_id();
        let fingerprint = {
            let answers: JsonObject = opened
                .carried
                .asked
                .iter()
                .filter_map(|q| Some((q.wire_key.clone(), responses.get(&q.wire_key)?.clone())))
                .collect();
            fingerprint(token.as_str().unwrap_or_default(), &answers)
        };
        let now_ms = self.config.clock.now_ms();
        match guard
            .take_ms(&round, &fingerprint, opened.expires_ms, now_ms)
            .await
        {
            Ok(RoundUse::First) => Ok(()),
            Ok(RoundUse::Again) => {
                tracing::info!(round, "the same round sent again: served again");
                Ok(())
            }
            Ok(RoundUse::Other) => {
                tracing::warn!(
                    reason = "already taken with other answers (a replayed retry)",
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

    /// Turns the end of a method that may ask for input into its answer.
    pub(super) fn finish_rounds<T: Asking>(
        &self,
        cx: &Cx,
        out: Driven<Result<T, Error>>,
    ) -> Answered {
        let modern = cx.req.revision.is_modern();
        let waited = match &out {
            Driven::InputRequired => Some(false),
            Driven::Ended(Ending::Retry) if modern => Some(true),
            _ => None,
        };
        // What the pass decided is told by how it ended (`observe::Pass`): with another
        // round, or with the end of the call (at the round cap or with state that cannot be
        // sealed, the questions of this pass are never sent).
        if let Some(waited) = waited {
            let written = self.input_required(cx, waited);
            cx.tell_pass(match (&written, waited) {
                (Ok(_), true) => Pass::Waited,
                (Ok(_), false) => Pass::Sent,
                (Err(_), _) => Pass::Last,
            });
            if written.is_err() {
                cx.tell_rounds(true);
            }
            return written.map(Some);
        }
        if !matches!(out, Driven::Cancelled) {
            let asked = cx.tell_pass(if modern { Pass::Last } else { Pass::Whole });
            cx.tell_rounds(asked);
        }
        let mut result = match out {
            Driven::Done(r) => r?,
            Driven::Ended(ending) => match T::ends_with(ending) {
                Ok(t) => t,
                Err(ending) => return ended(ending),
            },
            other => return settle(other),
        };
        let (req, from_answers) = (&cx.req, cx.req.round > 0 || !cx.asks().answers.is_empty());
        result.shape(req.revision);
        self.complete(&req.method, req.revision, result, from_answers)
    }

    /// The `InputRequiredResult` of a pass that recorded questions, or (`waited`) of one that
    /// only waits for an out-of-band flow: then it carries no `inputRequests`, and it does not
    /// count towards the round cap (the flow's time budget bounds such rounds).
    fn input_required(&self, cx: &Cx, waited: bool) -> Result<Written, Error> {
        let (cfg, req) = (&self.config, &cx.req);
        let asked_rounds = req.round.saturating_sub(cx.asks().waits);
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
        let (requests, mut carried) = cx.asks().next_round(req.round + 1, waited);
        carried.flow = cx.flow_id().to_owned();
        let binding = Bind {
            method: req.method.as_str(),
            target: cx.target(),
            args: &req.arguments,
            principal: req.principal.as_ref().map(|p| p.key()),
            audience: &cfg.audience,
        };
        let state = self.state_codec().seal(binding.binding(), carried)?;
        cx.tell_state(state.len());
        let requests = (!waited).then_some(requests);
        protocol::write(&InputRequiredResult::new(&cfg.info_text, requests, state))
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
