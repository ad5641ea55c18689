//! The call context: what a handler knows about the request and how it asks the client.

use crate::backchannel::{BackChannel, BackChannelError, Outbound};
use crate::canonical;
use crate::listen::Notifier;
use crate::protocol::{
    ClientCapabilities, CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult,
    Error, Implementation, InputRequest, JsonObject, ListRootsResult, LoggingLevel, ProgressToken,
    RequestId, Revision, notification,
};
use crate::server::Config;
use crate::state::Answer;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::fmt;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio_util::sync::{CancellationToken, WaitForCancellationFuture};

/// Who is calling, as established by the transport (an auth layer, a TLS peer, ...).
///
/// Bound into every sealed `requestState`, so state issued to one principal is rejected when
/// another presents it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Principal {
    id: String,
}

impl Principal {
    /// A principal with a stable id (e.g. the `sub` claim of an access token).
    pub fn new(id: impl Into<String>) -> Self {
        Principal { id: id.into() }
    }
    /// The id.
    pub fn id(&self) -> &str {
        &self.id
    }
}

/// Why a question got no answer. The caller takes its fallback branch.
#[derive(Debug, Clone, PartialEq)]
pub enum AskError {
    /// The client did not declare what the question needs; carries the missing capabilities.
    Unsupported(ClientCapabilities),
    /// The client answered with an error (2025-11-25; e.g. `-1` user rejected sampling).
    Rejected(Error),
    /// The answer did not have the expected shape (2025-11-25; on 2026-07-28 the question is
    /// asked again instead).
    Invalid(String),
    /// No answer in time (2025-11-25).
    Timeout,
    /// The connection or session ended before an answer came (2025-11-25).
    Disconnected,
}

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AskError::Unsupported(c) => write!(
                f,
                "the client did not declare the {} capability",
                c.names().join(", ")
            ),
            AskError::Rejected(e) => write!(f, "the client refused: {}", e.message),
            AskError::Invalid(m) => write!(f, "the client's answer was malformed: {m}"),
            AskError::Timeout => f.write_str("the client did not answer in time"),
            AskError::Disconnected => f.write_str("the client went away before answering"),
        }
    }
}

impl std::error::Error for AskError {}

/// A question recorded during one pass of a 2026-07-28 handler.
#[derive(Debug, Clone)]
pub(crate) struct Recorded {
    pub key: String,
    pub digest: String,
    pub request: InputRequest,
}

/// Mutable per-request ask state (never held across an `.await`).
#[derive(Debug, Default)]
pub(crate) struct AskState {
    /// Whether this method may answer `InputRequiredResult` (tools/call, prompts/get, resources/read).
    pub mrtr: bool,
    /// Answers from sealed state plus the fresh ones matched to last round's questions.
    pub answers: Vec<Answer>,
    /// `inputResponses` sent without a `requestState` (no question was rendered for them yet):
    /// matched by key alone to the questions asked in this pass.
    pub unbound: JsonObject,
    /// Memoised values: those from sealed state plus those computed now.
    pub memo: serde_json::Map<String, Value>,
    /// Questions recorded in this pass.
    pub questions: Vec<Recorded>,
    /// A protocol error that ends the request.
    pub abort: Option<Error>,
}

/// The context of one request, handed to every handler method.
///
/// It is borrowed (`&Cx`), so a question cannot escape into a spawned task that outlives the
/// request. On 2026-07-28 a handler runs from the top on every round: its locals are dropped
/// between rounds, answers already given are replayed, and [`Cx::memo`] keeps expensive
/// intermediate results.
pub struct Cx {
    pub(crate) revision: Revision,
    pub(crate) method: String,
    pub(crate) target: Option<String>,
    pub(crate) request_id: RequestId,
    pub(crate) round: u32,
    pub(crate) client_capabilities: ClientCapabilities,
    pub(crate) client_info: Option<Implementation>,
    pub(crate) log_level: Option<LoggingLevel>,
    pub(crate) logging_enabled: bool,
    pub(crate) progress_token: Option<ProgressToken>,
    pub(crate) principal: Option<Principal>,
    pub(crate) cancel: CancellationToken,
    pub(crate) out: Outbound,
    pub(crate) back: Option<Arc<BackChannel>>,
    pub(crate) config: Arc<Config>,
    pub(crate) notifier: Notifier,
    pub(crate) ask: Mutex<AskState>,
}

impl fmt::Debug for Cx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cx")
            .field("revision", &self.revision)
            .field("method", &self.method)
            .field("target", &self.target)
            .field("request_id", &self.request_id)
            .field("round", &self.round)
            .finish_non_exhaustive()
    }
}

impl Cx {
    /// The protocol revision of this request.
    pub fn revision(&self) -> Revision {
        self.revision
    }
    /// The JSON-RPC method (`tools/call`, `prompts/get`, ...).
    pub fn method(&self) -> &str {
        &self.method
    }
    /// The client's JSON-RPC id of this request (a retry has a new one).
    pub fn request_id(&self) -> &RequestId {
        &self.request_id
    }
    /// The round of a 2026-07-28 multi-round request: 0 for the first call, 1 for the first retry.
    pub fn round(&self) -> u32 {
        self.round
    }
    /// What the client declared: for this request (2026-07-28) or at `initialize` (2025-11-25).
    pub fn client_capabilities(&self) -> &ClientCapabilities {
        &self.client_capabilities
    }
    /// The client's self-reported name and version. Never a basis for security decisions.
    pub fn client_info(&self) -> Option<&Implementation> {
        self.client_info.as_ref()
    }
    /// The principal the transport authenticated, if any.
    pub fn principal(&self) -> Option<&Principal> {
        self.principal.as_ref()
    }
    /// Resolves when the client cancels the request (or closes its stream, on HTTP).
    pub fn cancelled(&self) -> WaitForCancellationFuture<'_> {
        self.cancel.cancelled()
    }
    /// Whether the request was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }
    /// Announces list changes and resource updates to the server's listeners.
    pub fn notifier(&self) -> &Notifier {
        &self.notifier
    }

    /// Ends the request with a JSON-RPC error. Never returns: the driver sees the error after
    /// this poll and answers with it, whatever the handler's own error type would have done.
    pub async fn fail(&self, error: Error) -> ! {
        self.state().abort.get_or_insert(error);
        std::future::pending().await
    }

    /// Ends the request with `-32021` unless the client declared `caps` (checked down to the
    /// elicitation mode and `sampling.tools`).
    pub async fn require(&self, caps: &ClientCapabilities) {
        if let Some(missing) = self.client_capabilities.missing(caps) {
            self.fail(Error::missing_capability(&missing)).await
        }
    }

    /// Sends `notifications/progress` if the client asked for progress on this request.
    /// `progress` must increase from one call to the next.
    pub async fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        let Some(token) = &self.progress_token else {
            return;
        };
        let mut params = json!({ "progressToken": token, "progress": progress });
        if let Some(t) = total {
            params["total"] = json!(t);
        }
        if let Some(m) = message {
            params["message"] = json!(m);
        }
        self.out
            .send(notification("notifications/progress", params))
            .await;
    }

    /// Sends `notifications/message` on this request's stream when the client opted in at or
    /// below `level` (2026-07-28: the request's `logLevel`; 2025-11-25: `logging/setLevel`) and
    /// the server declares the `logging` capability. Otherwise a no-op.
    pub async fn log(&self, level: LoggingLevel, logger: Option<&str>, data: impl Serialize) {
        if !self.logging_enabled || self.log_level.is_none_or(|min| level < min) {
            return;
        }
        let mut params =
            json!({ "level": level, "data": serde_json::to_value(data).unwrap_or(Value::Null) });
        if let Some(l) = logger {
            params["logger"] = json!(l);
        }
        self.out
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
        if let Some(v) = self.state().memo.get(key).cloned()
            && let Ok(t) = serde_json::from_value(v)
        {
            return Ok(t);
        }
        let t = fut.await?;
        if self.revision.is_modern() {
            match serde_json::to_value(&t) {
                Ok(v) => {
                    self.state().memo.insert(key.to_owned(), v);
                }
                Err(e) => {
                    tracing::warn!(key, error = %e, "memo value does not serialise; it will be recomputed")
                }
            }
        }
        Ok(t)
    }

    /// Asks the client one question and parses the answer with `parse`.
    ///
    /// `key` identifies the question in the code; it must be the same on every round (a static
    /// label, never a counter or a random id). The client must have declared what the question
    /// needs, else this returns [`AskError::Unsupported`] at once and sends nothing.
    ///
    /// 2026-07-28: an answer already given (matched by key *and* a digest of the rendered
    /// question) is returned; otherwise the question is recorded and this future never
    /// completes, the driver answers `InputRequiredResult` with every question recorded in this
    /// pass (so `join!` batches them) and the client calls again. An answer that `parse`
    /// rejects is asked again. 2025-11-25: a real request is sent on the request's stream and
    /// awaited with the configured timeout.
    pub async fn ask<T>(
        &self,
        key: &str,
        request: InputRequest,
        parse: impl Fn(Value) -> Result<T, String>,
    ) -> Result<T, AskError> {
        if let Some(missing) = self
            .client_capabilities
            .missing(&request.required_capabilities())
        {
            return Err(AskError::Unsupported(missing));
        }
        if !self.state().mrtr {
            self.fail(Error::internal(format!(
                "`{}` cannot ask the client for input",
                self.method
            )))
            .await
        }
        if self.revision.is_modern() {
            self.ask_modern(key, request, parse).await
        } else {
            self.ask_legacy(request, parse).await
        }
    }

    async fn ask_modern<T>(
        &self,
        key: &str,
        request: InputRequest,
        parse: impl Fn(Value) -> Result<T, String>,
    ) -> Result<T, AskError> {
        let digest = canonical::short_digest(&request.to_wire());
        {
            let mut st = self.state();
            if let Some(v) = st.unbound.remove(key) {
                st.answers.push(Answer {
                    k: key.to_owned(),
                    d: digest.clone(),
                    v,
                });
            }
            if let Some(i) = st.answers.iter().position(|a| a.k == key && a.d == digest) {
                match parse(st.answers[i].v.clone()) {
                    Ok(t) => return Ok(t),
                    Err(why) => {
                        tracing::debug!(key, %why, "answer did not parse; asking again");
                        st.answers.remove(i);
                    }
                }
            }
            if !st
                .questions
                .iter()
                .any(|q| q.key == key && q.digest == digest)
            {
                st.questions.push(Recorded {
                    key: key.to_owned(),
                    digest,
                    request,
                });
            }
        }
        std::future::pending().await
    }

    async fn ask_legacy<T>(
        &self,
        request: InputRequest,
        parse: impl Fn(Value) -> Result<T, String>,
    ) -> Result<T, AskError> {
        let Some(back) = &self.back else {
            return Err(AskError::Disconnected);
        };
        // 2025-11-25 requires `elicitationId` on URL-mode requests (2026-07-28 removed it, so
        // handlers written for both revisions leave it out): mint a unique one here.
        let request = match request {
            InputRequest::Elicit(ElicitRequest::Url {
                message,
                url,
                elicitation_id: None,
            }) => {
                let mut id = [0u8; 16];
                crate::state::fill_random(&mut id);
                let id: String = id.iter().map(|b| format!("{b:02x}")).collect();
                InputRequest::Elicit(ElicitRequest::Url {
                    message,
                    url,
                    elicitation_id: Some(id),
                })
            }
            other => other,
        };
        let timeout = self.config.ask_timeout;
        match back
            .request(
                &self.out,
                request.method(),
                request.params(),
                timeout,
                &self.cancel,
            )
            .await
        {
            Ok(v) => parse(v).map_err(AskError::Invalid),
            Err(BackChannelError::Client(e)) => Err(AskError::Rejected(e)),
            Err(BackChannelError::Timeout) => Err(AskError::Timeout),
            Err(BackChannelError::Closed) => Err(AskError::Disconnected),
        }
    }

    /// Asks for an elicitation (form or URL mode) and returns the user's [`ElicitResult`];
    /// decline and cancel are answers, not errors.
    pub async fn elicit(
        &self,
        key: &str,
        request: ElicitRequest,
    ) -> Result<ElicitResult, AskError> {
        self.ask(key, InputRequest::Elicit(request), parse_as).await
    }

    /// Asks the client's model for a completion (deprecated feature in 2026-07-28).
    pub async fn sample(
        &self,
        key: &str,
        request: CreateMessageRequest,
    ) -> Result<CreateMessageResult, AskError> {
        self.ask(key, InputRequest::Sample(request), parse_as).await
    }

    /// Asks for the client's roots (deprecated feature in 2026-07-28).
    pub async fn list_roots(&self, key: &str) -> Result<ListRootsResult, AskError> {
        self.ask(key, InputRequest::ListRoots, parse_as).await
    }

    pub(crate) fn state(&self) -> MutexGuard<'_, AskState> {
        self.ask.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Deserialises an answer as `T`, with the reason on failure.
pub fn parse_as<T: DeserializeOwned>(v: Value) -> Result<T, String> {
    serde_json::from_value(v).map_err(|e| e.to_string())
}

/// A convenience for building form schemas by hand.
pub fn form_schema(properties: JsonObject, required: &[&str]) -> JsonObject {
    let mut m = JsonObject::new();
    m.insert("type".into(), "object".into());
    m.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        m.insert("required".into(), json!(required));
    }
    m
}
