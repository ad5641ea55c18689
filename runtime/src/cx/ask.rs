//! How a handler asks the client: the capability check, then (2026-07-28) an answer from this
//! request's answers or a recorded question, or (2025-11-25) a real back-channel request.

use super::Cx;
use super::ask_state::{Ending, Found, Reading};
use crate::backchannel::BackChannelError;
use crate::canonical;
use crate::observe::{self, Call, Outcome, Pass};
use crate::protocol::AskKind;
use crate::protocol::echo;
use crate::protocol::{
    ClientCapabilities, CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult,
    Error, InputRequest, ListRootsResult, Revision,
};
use crate::state::QuestionId;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::fmt;
use std::sync::Arc;
use tokio::sync::Notify;

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
    /// The client declared what the question needs, but its protocol revision cannot carry
    /// this question (a multiple-choice form field for a 2025-06-18 client, say).
    NotInRevision {
        /// The session's revision.
        revision: Revision,
        /// What the revision cannot carry.
        what: String,
    },
}

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AskError::Unsupported(c) => write!(
                f,
                "the client did not declare the {} capability",
                c.names().join(", ")
            ),
            AskError::Rejected(e) => {
                write!(f, "the client rejected the request: {}", echo(&e.message))
            }
            // The reason says what was wrong with the answer ("the answer does not fit the
            // form: ...").
            AskError::Invalid(m) => f.write_str(m),
            AskError::Timeout => f.write_str("the client did not answer in time"),
            AskError::Disconnected => f.write_str("the client went away before answering"),
            AskError::NotInRevision { revision, what } => write!(
                f,
                "the client's protocol revision, {revision}, cannot carry {what}"
            ),
        }
    }
}

impl std::error::Error for AskError {}

/// How the engine reads an answer to the request as sent ([`Cx::ask_answer`]): the reader
/// keeps the value itself, so the engine is not generic over the answer's type.
pub(crate) type ReadAnswer<'r> = dyn FnMut(&InputRequest, Value) -> Reading<()> + Send + 'r;

/// Why [`Cx::ask_core`] has no answer.
#[derive(Debug)]
pub(crate) enum Failure {
    /// The client could not or did not answer (boxed: it may carry capabilities).
    Ask(Box<AskError>),
    /// It answered, and the answer cannot be used (see [`Reading::Unusable`]).
    Unusable(String),
}

impl Cx {
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
    pub async fn ask_raw<T: Send>(
        &self,
        key: &str,
        request: InputRequest,
        parse: impl Fn(Value) -> Result<T, String> + Send,
    ) -> Result<T, AskError> {
        let read = move |_: &InputRequest, v: Value| match parse(v) {
            Ok(t) => Reading::Value(t),
            Err(why) => Reading::Again(format!("the answer does not parse: {}", echo(why))),
        };
        self.ask_core(key, request, false, read)
            .await
            .map_err(|failure| match failure {
                Failure::Ask(e) => *e,
                Failure::Unusable(why) => AskError::Invalid(why),
            })
    }

    /// The engine under [`Cx::ask_raw`] and the typed questions: the capability check, then an
    /// answer (2026-07-28: from this request, else the question is recorded and the pass ends;
    /// 2025-11-25: from a real request). `consent`: an answer sent before the question was
    /// shown is not taken. `read` sees the request as it was sent and the answer.
    ///
    /// A thin generic shim over [`Cx::ask_answer`], which is not generic: `read` puts the
    /// answer in a slot here and tells the engine only whether there was one, so the engine's
    /// futures are compiled once, in this crate, not once per answer type in every crate that
    /// asks (design §9, "Build cost").
    pub(crate) async fn ask_core<T: Send>(
        &self,
        key: &str,
        request: InputRequest,
        consent: bool,
        mut read: impl FnMut(&InputRequest, Value) -> Reading<T> + Send,
    ) -> Result<T, Failure> {
        let mut slot = None;
        let mut into_slot = |sent: &InputRequest, v: Value| match read(sent, v) {
            Reading::Value(t) => {
                slot = Some(t);
                Reading::Value(())
            }
            Reading::Again(why) => Reading::Again(why),
            Reading::Unusable(why) => Reading::Unusable(why),
        };
        self.ask_answer(key, request, consent, &mut into_slot)
            .await?;
        // `ask_answer` is `Ok` only after `read` gave a value.
        slot.ok_or_else(|| Failure::Unusable("the answer was read twice".to_owned()))
    }

    /// [`Cx::ask_core`] without its answer type: `read` keeps the answer it reads.
    pub(crate) async fn ask_answer(
        &self,
        key: &str,
        request: InputRequest,
        consent: bool,
        read: &mut ReadAnswer<'_>,
    ) -> Result<(), Failure> {
        if let Some(missing) = self
            .req
            .client
            .capabilities
            .missing(&request.required_capabilities())
        {
            return Err(Failure::Ask(Box::new(AskError::Unsupported(missing))));
        }
        if !self.asks().may_ask {
            let why = format!("`{}` cannot ask the client for input", self.req.method);
            self.end(Ending::Error(Error::internal(why))).await
        }
        if self.req.revision.is_modern() {
            let notify = self.asks().task.as_ref().map(|t| t.notify.clone());
            match notify {
                Some(notify) => self.ask_in_task(notify, key, request, consent, read).await,
                None => self.ask_modern(key, request, consent, read).await,
            }
        } else {
            self.ask_legacy(key, request, read).await
        }
    }

    /// 2026-07-28: the answer this request carries, else the question is recorded and the pass
    /// ends (this future never completes; the driver answers `InputRequiredResult`).
    async fn ask_modern(
        &self,
        key: &str,
        request: InputRequest,
        consent: bool,
        read: &mut ReadAnswer<'_>,
    ) -> Result<(), Failure> {
        let question = question_id(key, &request);
        let kind = observe::kind_of(&request);
        {
            let mut asks = self.asks();
            match asks.answer(&question, consent, |v| read(&request, v)) {
                Found::Answer(t) => {
                    asks.tell_answered(&question, kind);
                    asks.narrow(&question, |v| read_part(&request, v));
                    return Ok(t);
                }
                Found::Unusable(why) => return Err(Failure::Unusable(why)),
                // Asked again, saying why; the question stays the one rendered (its digest),
                // so the next answer is matched to it as before.
                Found::Again(why) => {
                    asks.record(question, request.asked_again(&why), Outcome::ReAsked)
                }
                Found::Nothing => asks.record(question, request, Outcome::Asked),
            }
        }
        std::future::pending().await
    }

    /// In a running task: the answer `tasks/update` brought, else the question is recorded
    /// (the runner parks it in the task's record, `input_required`) and this waits, with the
    /// tool's future kept, until the runner injects answers. The same matching as
    /// [`Cx::ask_modern`]: key and rendering, consent, asked again (under a new wire key)
    /// when an answer does not fit.
    async fn ask_in_task(
        &self,
        notify: Arc<Notify>,
        key: &str,
        request: InputRequest,
        consent: bool,
        read: &mut ReadAnswer<'_>,
    ) -> Result<(), Failure> {
        let question = question_id(key, &request);
        let kind = observe::kind_of(&request);
        // Dropped unanswered (a `select!` against a timeout), the question is withdrawn.
        let _waiting = Waiting::new(self, &question);
        loop {
            let mut woken = std::pin::pin!(notify.notified());
            woken.as_mut().enable();
            {
                let mut asks = self.asks();
                match asks.answer(&question, consent, |v| read(&request, v)) {
                    Found::Answer(t) => {
                        asks.tell_answered(&question, kind);
                        return Ok(t);
                    }
                    Found::Unusable(why) => return Err(Failure::Unusable(why)),
                    Found::Again(why) => asks.record(
                        question.clone(),
                        request.clone().asked_again(&why),
                        Outcome::ReAsked,
                    ),
                    Found::Nothing if !asks.is_parked(&question) => {
                        asks.record(question.clone(), request.clone(), Outcome::Asked)
                    }
                    Found::Nothing => {}
                }
            }
            woken.await;
        }
    }

    async fn ask_legacy(
        &self,
        key: &str,
        request: InputRequest,
        read: &mut ReadAnswer<'_>,
    ) -> Result<(), Failure> {
        let Some(back) = &self.req.back else {
            return Err(Failure::Ask(Box::new(AskError::Disconnected)));
        };
        let revision = self.req.revision;
        let request = request
            .at(revision)
            .map_err(|what| Failure::Ask(Box::new(AskError::NotInRevision { revision, what })))?;
        let kind = observe::kind_of(&request);
        self.tell(key, kind, Outcome::Asked);
        let request = with_elicitation_id(request);
        let (method, params) = (request.method(), request.params_at(revision));
        // The question goes out in the current trace (design §33).
        #[cfg(feature = "otel")]
        let params = crate::otel::inject(params);
        let sent = match &self.req.config.layers {
            None => {
                let timeout = self.req.config.ask_timeout;
                back.request(&self.req.out, method, params, timeout, &self.req.cancel)
                    .await
            }
            Some(stack) => {
                let (back, out) = (back.clone(), self.req.out.clone());
                let (timeout, cancel) = (self.req.config.ask_timeout, self.req.cancel.clone());
                let ask = async move { back.request(&out, method, params, timeout, &cancel).await };
                let view = || self.outbound_view(crate::protocol::Method::parse(method), false);
                crate::middleware::ask(Some(stack), view, ask).await
            }
        };
        let error = match sent {
            Ok(v) => {
                let action = observe::Action::of(&v);
                return match read(&request, v) {
                    Reading::Value(t) => {
                        self.tell(key, kind, Outcome::Answered(action));
                        Ok(t)
                    }
                    Reading::Again(why) => Err(Failure::Ask(Box::new(AskError::Invalid(why)))),
                    Reading::Unusable(why) => Err(Failure::Unusable(why)),
                };
            }
            Err(BackChannelError::Client(e)) => AskError::Rejected(e),
            Err(BackChannelError::Malformed(why)) => AskError::Invalid(why),
            Err(BackChannelError::Timeout) => AskError::Timeout,
            Err(BackChannelError::Closed) => AskError::Disconnected,
        };
        Err(Failure::Ask(Box::new(error)))
    }

    /// Notes what question `key` came to in this pass (told when the pass ends, `observe`).
    pub(crate) fn tell(&self, key: &str, kind: AskKind, outcome: Outcome) {
        self.asks().tell(key, kind, outcome);
    }

    /// Tells what this pass decided about its questions, as far as a pass that ended as
    /// `pass` tells it (`observe::Pass`); whether it decided anything.
    pub(crate) fn tell_pass(&self, pass: Pass) -> bool {
        let decisions = std::mem::take(&mut self.asks().told);
        if decisions.is_empty() {
            return false;
        }
        observe::tell(&self.req.config.labels, &self.call(), decisions, pass);
        true
    }

    /// Tells how many rounds this request took, once it ended: when it asked anything (the
    /// rounds of calls that never ask would drown the figure).
    pub(crate) fn tell_rounds(&self, asked: bool) {
        if asked || self.req.round > 0 {
            observe::rounds(&self.req.config.labels, &self.call(), self.req.round + 1);
        }
    }

    /// Tells the size of the `requestState` this request answers with.
    pub(crate) fn tell_state(&self, bytes: usize) {
        observe::state_bytes(&self.req.config.labels, &self.call(), bytes);
    }

    fn call(&self) -> Call<'_> {
        Call {
            revision: self.req.revision,
            method: self.req.method.as_str(),
            name: self.target(),
            client: self.client_info().map(|c| c.name.as_str()),
        }
    }

    /// Asks for an elicitation (form or URL mode) and returns the user's [`ElicitResult`];
    /// decline and cancel are answers, not errors.
    pub async fn elicit(
        &self,
        key: &str,
        request: ElicitRequest,
    ) -> Result<ElicitResult, AskError> {
        self.ask_raw(key, InputRequest::Elicit(request), parse_as)
            .await
    }

    /// Asks the client's model for a completion (deprecated feature in 2026-07-28).
    pub async fn sample(
        &self,
        key: &str,
        request: CreateMessageRequest,
    ) -> Result<CreateMessageResult, AskError> {
        self.ask_raw(key, InputRequest::Sample(request), parse_as)
            .await
    }

    /// Asks for the client's roots (deprecated feature in 2026-07-28).
    pub async fn list_roots(&self, key: &str) -> Result<ListRootsResult, AskError> {
        self.ask_raw(key, InputRequest::ListRoots, parse_as).await
    }
}

/// One ask future waiting in a task for its question's answer: when the last one for a
/// question ends unanswered (the tool dropped it), the question is withdrawn from the task
/// ([`AskState::stop_waiting`](super::ask_state::AskState::stop_waiting)).
struct Waiting<'a> {
    cx: &'a Cx,
    question: QuestionId,
}

impl<'a> Waiting<'a> {
    fn new(cx: &'a Cx, question: &QuestionId) -> Waiting<'a> {
        cx.asks().start_waiting(question);
        Waiting {
            cx,
            question: question.clone(),
        }
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.cx.asks().stop_waiting(&self.question);
    }
}

/// Which question `request` asked under `key` is: the key and a digest of its rendering.
fn question_id(key: &str, request: &InputRequest) -> QuestionId {
    QuestionId {
        key: key.to_owned(),
        digest: canonical::short_digest(&request.to_wire()),
    }
}

/// 2025-11-25 requires `elicitationId` on URL-mode requests (2026-07-28 removed it, so handlers
/// written for both revisions leave it out): a unique one is minted here.
fn with_elicitation_id(request: InputRequest) -> InputRequest {
    match request {
        InputRequest::Elicit(ElicitRequest::Url {
            message,
            url,
            elicitation_id: None,
        }) => InputRequest::Elicit(ElicitRequest::Url {
            message,
            url,
            elicitation_id: Some(crate::state::random_id()),
        }),
        other => other,
    }
}

/// The part of an answer to `request` that is read, when it is less than the whole: an
/// elicitation's `action` and, for a form, the `content` fields its schema asks for. Carried
/// between rounds instead of the answer as received, so a field nobody reads (100 KB of
/// padding) does not weigh on `requestState`.
fn read_part(request: &InputRequest, answer: &Value) -> Option<Value> {
    let InputRequest::Elicit(elicit) = request else {
        return None;
    };
    let answer = answer.as_object()?;
    let mut part = serde_json::Map::new();
    if let Some(action) = answer.get("action") {
        part.insert("action".into(), action.clone());
    }
    if let (
        ElicitRequest::Form {
            requested_schema, ..
        },
        Some(Value::Object(content)),
    ) = (elicit, answer.get("content"))
    {
        let asked = requested_schema
            .get("properties")
            .and_then(Value::as_object);
        let read = content
            .iter()
            .filter(|(k, _)| asked.is_some_and(|p| p.contains_key(k.as_str())))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        part.insert("content".into(), Value::Object(read));
    }
    Some(Value::Object(part))
}

/// Deserialises an answer as `T`, with the reason on failure.
pub(crate) fn parse_as<T: DeserializeOwned>(v: Value) -> Result<T, String> {
    serde_json::from_value(v).map_err(|e| e.to_string())
}
