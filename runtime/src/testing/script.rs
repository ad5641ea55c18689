//! Scripted answers to the server's questions.

use crate::protocol::{ElicitAction, Error, Root};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;

/// How the scripted user or client answers one question.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// Elicitation: accept with this content (form) or with none (URL mode consent).
    Accept(Option<Value>),
    /// Elicitation: decline.
    Decline,
    /// Elicitation: cancel.
    Cancel,
    /// Any question: this exact answer value.
    Raw(Value),
    /// 2025-11-25: answer the server's request with this JSON-RPC error.
    Error(Error),
    /// Never answer: on 2026-07-28 the key is left out of the retry (and with nothing to send
    /// the client stops retrying); on 2025-11-25 no response is sent.
    Ignore,
}

impl Reply {
    /// Accept a form with `content`.
    pub fn accept(content: Value) -> Self {
        Reply::Accept(Some(content))
    }
    /// A sampling answer with this text, from model `test-model`.
    pub fn sample_text(text: &str) -> Self {
        Reply::Raw(json!({
            "role": "assistant",
            "content": {"type": "text", "text": text},
            "model": "test-model",
            "stopReason": "endTurn",
        }))
    }
    /// A roots answer.
    pub fn roots(roots: Vec<Root>) -> Self {
        Reply::Raw(json!({ "roots": roots }))
    }
    pub(super) fn to_value(&self) -> Option<Result<Value, Error>> {
        let action = |a: ElicitAction| json!({ "action": a });
        match self {
            Reply::Accept(Some(c)) => Some(Ok(json!({ "action": "accept", "content": c }))),
            Reply::Accept(None) => Some(Ok(action(ElicitAction::Accept))),
            Reply::Decline => Some(Ok(action(ElicitAction::Decline))),
            Reply::Cancel => Some(Ok(action(ElicitAction::Cancel))),
            Reply::Raw(v) => Some(Ok(v.clone())),
            Reply::Error(e) => Some(Err(e.clone())),
            Reply::Ignore => None,
        }
    }
}

/// Answers a question the queue has no reply for: the question's method and params.
type Responder = Arc<dyn Fn(&str, &Value) -> Reply + Send + Sync>;

/// Scripted answers, consumed in order: each question takes the first queued reply for its
/// method (and for its `inputRequests` key, when the reply names one); a question with none
/// queued is answered by the [responder](Script::otherwise) if there is one, else not at all.
#[derive(Clone, Default)]
pub struct Script {
    replies: VecDeque<(&'static str, Option<String>, Reply)>,
    otherwise: Option<Responder>,
}

impl fmt::Debug for Script {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Script")
            .field("replies", &self.replies)
            .field("otherwise", &self.otherwise.as_ref().map(|_| "Fn"))
            .finish()
    }
}

impl Script {
    /// An empty script: every question goes unanswered.
    pub fn new() -> Self {
        Script::default()
    }
    /// Queues an answer to the next `elicitation/create`.
    pub fn elicit(mut self, reply: Reply) -> Self {
        self.replies.push_back(("elicitation/create", None, reply));
        self
    }
    /// Queues an answer to the next `sampling/createMessage`.
    pub fn sample(mut self, reply: Reply) -> Self {
        self.replies
            .push_back(("sampling/createMessage", None, reply));
        self
    }
    /// Queues an answer to the next `roots/list`.
    pub fn roots(mut self, reply: Reply) -> Self {
        self.replies.push_back(("roots/list", None, reply));
        self
    }
    /// Queues an answer for the 2026-07-28 input request with this key.
    pub fn keyed(mut self, method: &'static str, key: &str, reply: Reply) -> Self {
        self.replies
            .push_back((method, Some(key.to_owned()), reply));
        self
    }
    /// Answers every question no queued reply matches with `respond(method, params)`: the
    /// question as it was put (`params` of `elicitation/create`, `sampling/createMessage` or
    /// `roots/list`), so the answer can fit it, a form filled from its `requestedSchema` say.
    ///
    /// ```
    /// use rondo_mcp::testing::{Reply, Script};
    /// // A user who declines every form and a model that always says the same.
    /// let script = Script::new().otherwise(|method, _params| match method {
    ///     "elicitation/create" => Reply::Decline,
    ///     _ => Reply::sample_text("No."),
    /// });
    /// # let _ = script;
    /// ```
    pub fn otherwise(
        mut self,
        respond: impl Fn(&str, &Value) -> Reply + Send + Sync + 'static,
    ) -> Self {
        self.otherwise = Some(Arc::new(respond));
        self
    }
    /// The reply to the question `method` (with `params`, under `key` on 2026-07-28).
    pub(super) fn take(
        &mut self,
        method: &str,
        key: Option<&str>,
        params: &Value,
    ) -> Option<Reply> {
        let queued = self
            .replies
            .iter()
            .position(|(m, k, _)| *m == method && (k.is_none() || k.as_deref() == key));
        match queued {
            Some(i) => self.replies.remove(i).map(|(_, _, r)| r),
            None => self
                .otherwise
                .as_ref()
                .map(|respond| respond(method, params)),
        }
    }
}
