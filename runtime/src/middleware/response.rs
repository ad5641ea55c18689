//! [`McpResponse`]: what a message came to, as a layer sees it and may make it.

use super::BoxError;
use crate::backchannel::BackChannelError;
use crate::protocol::{Error, Written};
use serde_json::Value;
use std::fmt;

/// What a message came to: a served request's result or error, a client's answer to the
/// server's request, or a notification sent. A layer that does not pass a message on answers
/// [`McpResponse::error`].
pub struct McpResponse {
    pub(crate) kind: Kind,
}

pub(crate) enum Kind {
    /// An inbound request served: its result's JSON text, or its error; `Ok(None)` when it was
    /// cancelled (nothing is sent for it).
    Served(Result<Option<Written>, Error>),
    /// An outbound request: the client's answer.
    Asked(Result<Value, BackChannelError>),
    /// An outbound notification: whether it went out.
    Sent(bool),
    /// A layer refused the message (or failed) with this error, without passing it on.
    Refused(Error),
}

impl McpResponse {
    /// A layer's answer to a message it does not pass on: an inbound request is answered with
    /// this error; an outbound request fails as if the client had answered it (the question
    /// takes its fallback); an outbound notification is not sent.
    pub fn error(error: Error) -> McpResponse {
        McpResponse {
            kind: Kind::Refused(error),
        }
    }

    /// A layer's failure (a `tower::timeout` that elapsed): its MCP error when it is one, else
    /// `-32603` with its text.
    pub(crate) fn failed(e: BoxError) -> McpResponse {
        let error = match e.downcast::<Error>() {
            Ok(e) => *e,
            Err(e) => Error::internal(e.to_string()),
        };
        McpResponse::error(error)
    }

    /// What a served inbound request came to.
    pub(crate) fn served(answered: Result<Option<Written>, Error>) -> McpResponse {
        McpResponse {
            kind: Kind::Served(answered),
        }
    }

    /// What an outbound request came to: the client's answer.
    pub(crate) fn asked(answer: Result<Value, BackChannelError>) -> McpResponse {
        McpResponse {
            kind: Kind::Asked(answer),
        }
    }

    /// Whether an outbound notification went out.
    pub(crate) fn sent(sent: bool) -> McpResponse {
        McpResponse {
            kind: Kind::Sent(sent),
        }
    }

    /// The inbound request's answer it is (a layer's refusal is the request's error).
    pub(crate) fn into_answered(self) -> Result<Option<Written>, Error> {
        match self.kind {
            Kind::Served(answered) => answered,
            Kind::Refused(e) => Err(e),
            Kind::Asked(_) | Kind::Sent(_) => Err(Error::internal(
                "a middleware layer answered a request with another message's response",
            )),
        }
    }

    /// The error it came to, if any: a request's JSON-RPC error (or a layer's), the client's
    /// error answer to an outbound request.
    pub fn as_error(&self) -> Option<&Error> {
        match &self.kind {
            Kind::Served(Err(e))
            | Kind::Refused(e)
            | Kind::Asked(Err(BackChannelError::Client(e))) => Some(e),
            _ => None,
        }
    }

    /// Whether it failed: an error ([`McpResponse::as_error`]), an outbound request the client
    /// did not answer (timeout, gone, malformed), or a notification that did not go out.
    pub fn is_failure(&self) -> bool {
        match &self.kind {
            Kind::Served(r) => r.is_err(),
            Kind::Asked(r) => r.is_err(),
            Kind::Sent(sent) => !sent,
            Kind::Refused(_) => true,
        }
    }

    /// The result of a served request, as its JSON text (`None` for an error, a cancelled
    /// request and every outbound message).
    pub fn result_text(&self) -> Option<&str> {
        match &self.kind {
            Kind::Served(Ok(Some(text))) => Some(text),
            _ => None,
        }
    }

    /// Whether a served `tools/call` ended in a tool error the model reads (`isError: true`).
    pub fn is_tool_error(&self) -> bool {
        #[derive(serde::Deserialize)]
        struct IsError {
            #[serde(rename = "isError", default)]
            is_error: bool,
        }
        self.result_text()
            .and_then(|t| serde_json::from_str::<IsError>(t).ok())
            .is_some_and(|r| r.is_error)
    }

    /// The client's answer to an outbound request.
    pub fn answer(&self) -> Option<&Value> {
        match &self.kind {
            Kind::Asked(Ok(v)) => Some(v),
            _ => None,
        }
    }

    /// Whether an inbound request was cancelled (nothing is sent for it).
    pub fn is_cancelled(&self) -> bool {
        matches!(self.kind, Kind::Served(Ok(None)))
    }
}

impl fmt::Debug for McpResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match &self.kind {
            Kind::Served(Ok(Some(_))) => "result",
            Kind::Served(Ok(None)) => "cancelled",
            Kind::Served(Err(_)) | Kind::Refused(_) => "error",
            Kind::Asked(Ok(_)) => "answer",
            Kind::Asked(Err(_)) => "no answer",
            Kind::Sent(true) => "sent",
            Kind::Sent(false) => "not sent",
        };
        f.debug_struct("McpResponse")
            .field("kind", &kind)
            .field("error", &self.as_error())
            .finish()
    }
}
