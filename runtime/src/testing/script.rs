//! Scripted answers to the server's questions.

use crate::protocol::{ElicitAction, Error, Root};
use serde_json::{Value, json};
use std::collections::VecDeque;

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

/// Scripted answers, consumed in order: each question takes the first queued reply for its
/// method (and for its `inputRequests` key, when the reply names one).
#[derive(Debug, Clone, Default)]
pub struct Script {
    replies: VecDeque<(&'static str, Option<String>, Reply)>,
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
    pub(super) fn take(&mut self, method: &str, key: Option<&str>) -> Option<Reply> {
        let i = self
            .replies
            .iter()
            .position(|(m, k, _)| *m == method && (k.is_none() || k.as_deref() == key))?;
        self.replies.remove(i).map(|(_, _, r)| r)
    }
}
