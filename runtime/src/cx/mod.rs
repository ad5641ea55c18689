//! The call context: what a handler knows about the request and how it asks the client.

mod ask;
mod ask_state;
mod once;
mod task;

pub use crate::identity::Principal;
use crate::identity::{self, AccessToken, BearerToken, Scope, StepUp, StepUpSlot};
pub use ask::AskError;
pub(crate) use ask::Failure;
pub(crate) use ask_state::{AskState, Ending, Reading, StartPhase, TaskLink};
pub use once::OnceError;

use crate::backchannel::{BackChannel, Outbound};
use crate::config::{Config, FlowSettings};
use crate::notify::Notifier;
use crate::policy::{CapSet, ClientSide};
use crate::protocol::{
    ClientCapabilities, Error, Implementation, JsonObject, LoggingLevel, Method, ProgressToken,
    RequestId, Revision, echo, notification,
};
use crate::sync::lock;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::fmt;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use tokio_util::sync::{CancellationToken, WaitForCancellationFuture};

/// The context of one request, handed to every handler method.
///
/// It is borrowed (`&Cx`), so a question cannot escape into a spawned task that outlives the
/// request. On 2026-07-28 a handler runs from the top on every round: its locals are dropped
/// between rounds, answers already given are replayed, and [`Cx::memo`] keeps expensive
/// intermediate results.
pub struct Cx {
    /// What the request is, shared with the engine that serves it.
    pub(crate) req: Arc<RequestFacts>,
    pub(crate) asks: Mutex<AskState>,
    /// The flow's id: carried by `requestState`, else minted when first needed.
    pub(crate) flow_id: OnceLock<String>,
    /// How many [`Cx::once`] calls are between their claim and their record: a cancelled
    /// request is driven on until none is (see `dispatch::drive`).
    pub(crate) shield: std::sync::atomic::AtomicUsize,
}

/// The immutable facts of one request: built once, by moving what the transport parsed, and
/// shared in one allocation by its context and the engine that serves it (design §23).
pub(crate) struct RequestFacts {
    pub(crate) revision: Revision,
    pub(crate) method: Method,
    /// The tool, prompt or resource a method that may ask is for.
    pub(crate) target: Option<String>,
    pub(crate) request_id: RequestId,
    pub(crate) round: u32,
    /// What the client declared, as the server's client policy narrowed it.
    pub(crate) client: Arc<ClientSide>,
    pub(crate) log_level: Option<LoggingLevel>,
    pub(crate) progress_token: Option<ProgressToken>,
    pub(crate) principal: Option<Principal>,
    /// Where [`Cx::require_scopes`] records a step-up (protected endpoints only).
    pub(crate) step_up: Option<StepUpSlot>,
    /// The arguments of a tool call or a prompt (`{}` for other methods).
    pub(crate) arguments: JsonObject,
    pub(crate) cancel: CancellationToken,
    pub(crate) out: Outbound,
    pub(crate) back: Option<Arc<BackChannel>>,
    /// The server's settings (ask timeout, flow waits, clock, capabilities).
    pub(crate) config: Arc<Config>,
    pub(crate) notifier: Notifier,
}

impl fmt::Debug for Cx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cx")
            .field("revision", &self.req.revision)
            .field("method", &self.req.method.as_str())
            .field("target", &self.req.target)
            .field("request_id", &self.req.request_id)
            .field("round", &self.req.round)
            .finish_non_exhaustive()
    }
}

impl Cx {
    /// The context of the request `req`, with what its earlier rounds carried.
    pub(crate) fn new(req: Arc<RequestFacts>, asks: AskState, flow: Option<String>) -> Cx {
        Cx {
            req,
            asks: Mutex::new(asks),
            flow_id: flow.map_or_else(OnceLock::new, OnceLock::from),
            shield: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// The protocol revision of this request.
    pub fn revision(&self) -> Revision {
        self.req.revision
    }
    /// The JSON-RPC method of this request (`Method::ToolsCall`, `Method::PromptsGet`, ...);
    /// [`Method::as_str`] is its wire name.
    pub fn method(&self) -> &Method {
        &self.req.method
    }
    /// The client's JSON-RPC id of this request (a retry has a new one).
    pub fn request_id(&self) -> &RequestId {
        &self.req.request_id
    }
    /// The round of a 2026-07-28 multi-round request: 0 for the first call, 1 for the first retry.
    pub fn round(&self) -> u32 {
        self.req.round
    }
    /// The id of this call's flow: random, minted in its first round, and the same on every
    /// 2026-07-28 retry of it (it is sealed into `requestState`), whichever instance of a
    /// fleet serves the round; on 2025-11-25, where a call is one request, a fresh id per call.
    /// 32 lowercase hex digits.
    ///
    /// It is **the idempotency key for effects after the last question**. The tool runs from
    /// the top on every round, and a round can be served twice: the replay guard serves the
    /// same round sent again unchanged (a client that lost its answer, or was told to try
    /// again), and a guard that is off or not shared lets a captured request through. Record
    /// the effect under this id (an order, a payment; [`Cx::once`] does it) and, when the id is
    /// already recorded, answer what was done instead of doing it again. Two calls never share
    /// an id, so a user who orders twice on purpose gets two orders.
    pub fn flow_id(&self) -> &str {
        self.flow_id.get_or_init(crate::state::random_id)
    }
    /// What the client declared: for this request (2026-07-28) or at `initialize` (2025-11-25),
    /// less what the server's [client policy](crate::ClientPolicy) removes for this client.
    pub fn client_capabilities(&self) -> &ClientCapabilities {
        &self.req.client.capabilities
    }
    /// What the server's client policy removed from what the client declared (empty when no
    /// rule matched): a question that falls back for want of one of these falls back because
    /// of the policy.
    pub(crate) fn removed_by_policy(&self) -> CapSet {
        self.req.client.removed_by_policy
    }
    /// Whether a question that cannot be asked for want of `missing` could have been asked
    /// without the client policy (the client declared all of it, the policy removed some).
    pub(crate) fn missing_by_policy(&self, missing: &ClientCapabilities) -> bool {
        self.removed_by_policy()
            .explains(&self.req.client.capabilities, missing)
    }
    /// The client's self-reported name and version. Never a basis for security decisions.
    pub fn client_info(&self) -> Option<&Implementation> {
        self.req.client.info.as_ref()
    }
    /// The principal the transport authenticated, if any: on a protected HTTP endpoint (the
    /// `auth` feature) the verified issuer, subject and client id of the request's token.
    pub fn principal(&self) -> Option<&Principal> {
        self.req.principal.as_ref()
    }
    /// The verified access token of this request, on an endpoint protected by a resource
    /// server: its scopes, expiry and every claim. Never the raw token (see
    /// [`bearer_token`](Cx::bearer_token)).
    pub fn access_token(&self) -> Option<&AccessToken> {
        self.principal()?.access_token()
    }
    /// The scopes the request's token grants, as the token names them (empty without one).
    pub fn scopes(&self) -> impl Iterator<Item = &Scope> + '_ {
        self.access_token().into_iter().flat_map(|t| &t.scopes)
    }
    /// Whether the request's token grants `scope`, by name or through a broader scope that
    /// implies it under the server's hierarchy. `false` without a token.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.principal().is_some_and(|p| p.grants(scope))
    }
    /// The raw bearer token of this request, only when the resource server was built with
    /// [`expose_bearer_token(true)`](crate::auth::ResourceServerBuilder::expose_bearer_token)
    /// (feature `auth`). The MCP specification forbids forwarding it to upstream APIs
    /// ("token passthrough"); this is for a token exchange (RFC 8693) and the like. Its
    /// `Debug` and `Display` print only its length.
    pub fn bearer_token(&self) -> Option<&BearerToken> {
        self.principal()?.bearer_token()
    }
    /// Whether a list should show an item that needs `required`: yes, unless the resource
    /// server filters lists
    /// ([`filter_lists`](crate::auth::ResourceServerBuilder::filter_lists)) and the request's
    /// token lacks one of them. For a hand-written handler's lists; [`Router`](crate::Router)
    /// asks it for every tool, prompt and resource.
    pub fn can_see(&self, required: &[Scope]) -> bool {
        match self.principal() {
            Some(p) if p.filters_lists() => required.iter().all(|s| p.grants(s.as_str())),
            _ => true,
        }
    }
    /// Whether this request's lists are filtered by its token (then they are private).
    pub(crate) fn lists_filtered(&self) -> bool {
        self.principal().is_some_and(Principal::filters_lists)
    }
    /// `Ok` when the request's token grants every one of `scopes` (by name or through a
    /// broader scope); otherwise the step-up error, to return with `?`: a decision inside a
    /// tool body, where declaring `#[tool(scopes = [..])]` cannot express it (a scope needed
    /// only for some arguments, or only in a later round).
    ///
    /// On a protected HTTP endpoint, returned before anything was sent for the request, it
    /// is answered as `403 insufficient_scope` naming the scopes, as a declared scope is, and
    /// the client steps up: it obtains a wider token and sends the same request again. A
    /// 2026-07-28 retry keeps its `requestState` and answers (they are bound to the user, not
    /// to the token), so a question answered before the step-up is not asked again. Once a
    /// progress notification or a 2025-11-25 question has gone out, the status can no longer
    /// change: the request then fails with `-32603` whose `data` is `{"error":
    /// "insufficient_scope", "scope": ".."}`, so call this before sending anything.
    ///
    /// Without a verified token (stdio, or HTTP without a resource server) no authorization
    /// is in force and this returns `Ok`. A scope that is not a valid scope-token is an
    /// internal error.
    pub fn require_scopes<S: AsRef<str>>(
        &self,
        scopes: impl IntoIterator<Item = S>,
    ) -> Result<(), Error> {
        let Some((p, token)) = self.principal().and_then(|p| Some((p, p.access_token()?))) else {
            return Ok(());
        };
        let mut required = Vec::new();
        for s in scopes {
            let s = s.as_ref();
            let scope = Scope::new(s.to_owned())
                .map_err(|e| Error::internal(format!("require_scopes: {}: {e}", echo(s))))?;
            required.push(scope);
        }
        let missing: Vec<Scope> = required
            .iter()
            .filter(|s| !p.grants(s.as_str()))
            .cloned()
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        let scopes = identity::challenge_scopes(&required, &token.scopes);
        let list = |v: &[Scope]| v.iter().map(Scope::as_str).collect::<Vec<_>>().join(" ");
        let e = Error {
            code: crate::protocol::code::INTERNAL_ERROR,
            message: format!(
                "This request needs the scope {}; authorize it and send the request again",
                list(&missing)
            ),
            data: Some(json!({"error": "insufficient_scope", "scope": list(&scopes)})),
        };
        if let Some(slot) = &self.req.step_up {
            let _ = slot.set(StepUp { scopes, missing });
        }
        Err(e)
    }
    /// Resolves when the client cancels the request (or closes its stream, on HTTP).
    pub fn cancelled(&self) -> WaitForCancellationFuture<'_> {
        self.req.cancel.cancelled()
    }
    /// Whether the request was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.req.cancel.is_cancelled()
    }
    /// Announces list changes and resource updates to the server's listeners.
    pub fn notifier(&self) -> &Notifier {
        &self.req.notifier
    }

    /// Ends the request with a JSON-RPC error. Never returns: the driver sees the error after
    /// this poll and answers with it, whatever the handler's own error type would have done.
    pub async fn fail(&self, error: Error) -> ! {
        self.end(Ending::Error(error)).await
    }

    /// Ends the request as `ending` says; never returns (see [`Ending`]).
    pub(crate) async fn end(&self, ending: Ending) -> ! {
        self.asks().end(ending);
        std::future::pending().await
    }

    /// Ends the request with `-32021` unless the client declared `caps` (checked down to the
    /// elicitation mode and `sampling.tools`).
    pub async fn require(&self, caps: &ClientCapabilities) {
        if let Some(missing) = self.req.client.capabilities.missing(caps) {
            let error = Error::missing_capability_at(&missing, self.req.revision);
            self.fail(error).await
        }
    }

    /// Sends `notifications/progress` if the client asked for progress on this request.
    /// `progress` must increase from one call to the next. In a task (the tasks extension has
    /// no progress messages) the message, if any, becomes the task's `statusMessage` instead
    /// ([`Cx::task_status`]).
    pub async fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        if self.in_task() {
            if let Some(m) = message {
                self.task_status(m).await;
            }
            return;
        }
        let Some(token) = &self.req.progress_token else {
            return;
        };
        let mut params = json!({ "progressToken": token, "progress": progress });
        if let Some(t) = total {
            params["total"] = json!(t);
        }
        // 2024-11-05's progress notification has no message.
        if let Some(m) = message
            && self.req.revision.has_annotations_and_audio()
        {
            params["message"] = json!(m);
        }
        self.req
            .out
            .send(notification(Method::Progress.as_str(), params))
            .await;
    }

    /// Sends `notifications/message` on this request's stream when the client opted in at or
    /// below `level` (2026-07-28: the request's `logLevel`; 2025-11-25: `logging/setLevel`) and
    /// the server declares the `logging` capability. Otherwise a no-op.
    pub async fn log(&self, level: LoggingLevel, logger: Option<&str>, data: impl Serialize) {
        if self.req.config.info.capabilities.logging.is_none()
            || self.req.log_level.is_none_or(|min| level < min)
            || self.in_task()
        {
            return;
        }
        let mut params =
            json!({ "level": level, "data": serde_json::to_value(data).unwrap_or(Value::Null) });
        if let Some(l) = logger {
            params["logger"] = json!(l);
        }
        self.req
            .out
            .send(notification("notifications/message", params))
            .await;
    }

    /// Runs `fut` once per multi-round request: on 2026-07-28 its `Ok` value is sealed into
    /// `requestState` and replayed on later rounds instead of running `fut` again, so expensive
    /// or live lookups are not repeated and cannot change the questions between rounds.
    /// On 2025-11-25 the handler runs once anyway and `fut` is simply awaited.
    pub async fn memo<T, E, F>(&self, key: &str, fut: F) -> Result<T, E>
    where
        T: Serialize + DeserializeOwned,
        F: Future<Output = Result<T, E>>,
    {
        if let Some(v) = self.asks().memo.get(key).cloned()
            && let Ok(t) = serde_json::from_value(v)
        {
            return Ok(t);
        }
        let t = fut.await?;
        if self.req.revision.is_modern() {
            match serde_json::to_value(&t) {
                Ok(v) => {
                    self.asks().memo.insert(key.to_owned(), v);
                }
                Err(e) => {
                    tracing::warn!(key, error = %e, "memo value does not serialise; it will be recomputed")
                }
            }
        }
        Ok(t)
    }

    /// The tool call's arguments, when this request is a `tools/call`.
    pub(crate) fn arguments(&self) -> Option<&JsonObject> {
        (self.req.method == Method::ToolsCall).then_some(&self.req.arguments)
    }

    /// The tool, prompt or resource this request is for (empty for other methods).
    pub(crate) fn target(&self) -> &str {
        self.req.target.as_deref().unwrap_or_default()
    }

    /// How URL-mode flows are waited for.
    pub(crate) fn flow_settings(&self) -> FlowSettings {
        self.req.config.flow
    }

    /// Now, in ms since the epoch, by the server's clock.
    pub(crate) fn now_ms(&self) -> u64 {
        self.req.config.clock.now_ms()
    }

    /// When the flow of question `key` started to be waited for: now, the first time; sealed
    /// into `requestState` so later rounds measure from the same start.
    pub(crate) fn flow_started(&self, key: &str) -> u64 {
        let now = self.now_ms();
        *self.asks().flows.entry(key.to_owned()).or_insert(now)
    }

    /// 2025-11-25: tells the client the URL-mode elicitation `id` finished, on this request's
    /// stream (so only the client that started it hears it).
    pub(crate) async fn elicitation_complete(&self, id: &str) {
        let params = json!({ "elicitationId": id });
        self.req
            .out
            .send(notification(Method::ElicitationComplete.as_str(), params))
            .await;
    }

    /// This request's ask state (answers, recorded questions, memo values, ending).
    pub(crate) fn asks(&self) -> MutexGuard<'_, AskState> {
        lock(&self.asks)
    }
}
