//! How a handler asks the client: the capability check, then (2026-07-28) an answer from this
//! request's answers or a recorded question, or (2025-11-25) a real back-channel request.

use super::Cx;
use crate::backchannel::BackChannelError;
use crate::canonical;
use crate::protocol::{
    ClientCapabilities, CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult,
    Error, InputRequest, JsonObject, ListRootsResult,
};
use crate::state::Answer;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::fmt;

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
    pub async fn ask_raw<T>(
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

/// Deserialises an answer as `T`, with the reason on failure.
pub fn parse_as<T: DeserializeOwned>(v: Value) -> Result<T, String> {
    serde_json::from_value(v).map_err(|e| e.to_string())
}
