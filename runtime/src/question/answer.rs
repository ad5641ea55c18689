//! What a question gives back: [`Answer`] for elicitation, and [`Fallback`], what a fallback
//! function returns.

use crate::protocol::CallToolResult;
use crate::tools::IntoToolResult;
use std::fmt;

/// The user's answer to an elicitation question (form or URL mode).
///
/// Decline and cancel are answers, not errors: many clients show the question and let the user
/// say no, and some decline on the user's behalf. Branch on them, or turn them into a readable
/// tool error in one call with [`Answer::accepted`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use = "an answer says whether the user agreed; branch on it"]
pub enum Answer<T> {
    /// The user submitted the form (or, in URL mode, agreed to open the page).
    Accept(T),
    /// The user explicitly said no.
    Decline,
    /// The user dismissed the question without choosing.
    Cancel,
}

impl<T> Answer<T> {
    /// The accepted value, or [`NotAccepted`] naming what the user did. `?` turns it into the
    /// tool's error (an `isError` result the model can read): `let a = cx.ask(q).await.accepted()?;`
    pub fn accepted(self) -> Result<T, NotAccepted> {
        match self {
            Answer::Accept(t) => Ok(t),
            Answer::Decline => Err(NotAccepted { cancelled: false }),
            Answer::Cancel => Err(NotAccepted { cancelled: true }),
        }
    }

    /// The accepted value, if any.
    pub fn ok(self) -> Option<T> {
        match self {
            Answer::Accept(t) => Some(t),
            Answer::Decline | Answer::Cancel => None,
        }
    }

    /// Whether the user accepted.
    pub fn is_accept(&self) -> bool {
        matches!(self, Answer::Accept(_))
    }

    /// Maps the accepted value.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Answer<U> {
        match self {
            Answer::Accept(t) => Answer::Accept(f(t)),
            Answer::Decline => Answer::Decline,
            Answer::Cancel => Answer::Cancel,
        }
    }
}

/// The user declined or dismissed a question (from [`Answer::accepted`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotAccepted {
    cancelled: bool,
}

impl NotAccepted {
    /// `true` when the user dismissed the question, `false` when they declined it.
    pub fn is_cancel(self) -> bool {
        self.cancelled
    }
}

impl fmt::Display for NotAccepted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.cancelled {
            "The user dismissed the question; nothing was done."
        } else {
            "The user declined; nothing was done."
        })
    }
}

impl std::error::Error for NotAccepted {}

impl From<NotAccepted> for String {
    fn from(n: NotAccepted) -> String {
        n.to_string()
    }
}

/// What a fallback function returns: the answer the question would have given, or the end of
/// the tool with a result of its own (for example every candidate, so that the host's model
/// chooses in the main conversation when the client cannot sample).
///
/// A fallback may return the answer type itself (`From` converts it) or a `Fallback`.
#[derive(Debug, Clone, PartialEq)]
pub enum Fallback<A> {
    /// Use this as the question's answer.
    Answer(A),
    /// End the tool now with this result.
    End(CallToolResult),
    /// End the request with `-32021`, naming the capability the client did not declare (what
    /// `fallback = refuse` does; a fallback function may decide to refuse too).
    Refuse,
}

impl<A> Fallback<A> {
    /// Ends the tool with `result` (anything a `#[tool]` function may return).
    pub fn end(result: impl IntoToolResult) -> Self {
        Fallback::End(result.into_tool_result())
    }

    /// Ends the tool with an `isError` result the model can read, saying what is missing and
    /// how to provide it (`"no folder to search: pass `folder`, or start the server with --root"`).
    pub fn fail(message: impl Into<String>) -> Self {
        Fallback::End(CallToolResult::error(message))
    }
}

impl<A> From<A> for Fallback<A> {
    fn from(a: A) -> Self {
        Fallback::Answer(a)
    }
}
