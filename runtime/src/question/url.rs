//! [`Url`]: what an `#[elicit(url)]` function renders, and [`UrlFlow`], the out-of-band flow
//! the user agreed to (a payment, a third-party sign-in, a secret typed into the server's page).

use super::{Answer, Failed, Read, Rendered};
use crate::cx::{AskError, Cx, Ending};
use crate::protocol::echo;
use crate::protocol::{
    ClientCapabilities, ElicitAction, ElicitRequest, ElicitResult, InputRequest, Revision,
};
use serde_json::Value;
use std::future::Future;
use std::time::Duration;

/// A page the user opens: a message saying why, and the URL (MCP elicitation, URL mode). Use it
/// for anything a form must not carry: passwords, keys, payment details, third-party sign-in.
///
/// The client only reports whether the user agreed to open the page ([`Answer::Accept`] with a
/// [`UrlFlow`]); whether the flow there finished is for the server to find out, with
/// [`UrlFlow::finished`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Url {
    message: String,
    url: String,
}

impl Url {
    /// A page at `url`, with a message saying what it is for. The URL must not carry personal
    /// data or credentials, and should be `https:`.
    pub fn new(message: impl Into<String>, url: impl Into<String>) -> Self {
        Url {
            message: message.into(),
            url: url.into(),
        }
    }
    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
    /// The URL.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Rendered for Url {
    type Answer = Answer<UrlFlow>;

    fn needs() -> ClientCapabilities {
        ClientCapabilities::with_elicitation_url()
    }

    /// Agreeing to open a page is consent: it must answer a page the server showed.
    fn consent(&self) -> bool {
        true
    }

    fn request(&self, _revision: Revision) -> InputRequest {
        InputRequest::Elicit(ElicitRequest::Url {
            message: self.message.clone(),
            url: self.url.clone(),
            elicitation_id: None,
        })
    }

    fn read(&self, key: &'static str, sent: &InputRequest, answer: Value) -> Read<Answer<UrlFlow>> {
        let result: ElicitResult = match serde_json::from_value(answer) {
            Ok(r) => r,
            Err(e) => {
                return Read::AskAgain(format!(
                    "the answer is not an elicitation result: {}",
                    echo(e)
                ));
            }
        };
        let elicitation_id = match sent {
            InputRequest::Elicit(ElicitRequest::Url { elicitation_id, .. }) => {
                elicitation_id.clone()
            }
            _ => None,
        };
        Read::Answer(match result.action {
            ElicitAction::Accept => Answer::Accept(UrlFlow {
                question: key,
                elicitation_id,
            }),
            ElicitAction::Decline => Answer::Decline,
            ElicitAction::Cancel => Answer::Cancel,
        })
    }

    fn failed(&self, key: &'static str, why: &AskError) -> Failed<Answer<UrlFlow>> {
        match why {
            AskError::Unsupported(_) | AskError::NotInRevision { .. } => Failed::Fallback,
            AskError::Timeout => Failed::Answer(Answer::Cancel),
            other => Failed::End(format!("Could not ask `{key}`: {other}")),
        }
    }
}

/// The flow the user agreed to open. Its end is for the server to observe (a payment's status,
/// a stored token): [`UrlFlow::finished`] waits for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlFlow {
    question: &'static str,
    elicitation_id: Option<String>,
}

impl UrlFlow {
    /// Waits until `check` reports the flow finished (`Some`), and returns what it reported.
    ///
    /// `check` is the server's own code (for example a payment provider's status); it is called
    /// about once a second. 2026-07-28: it is waited for a bounded time on each call
    /// ([`Server::flow_wait`](crate::Server::flow_wait)), with progress notifications when the
    /// client asked for them; still unfinished, the request answers an `InputRequiredResult`
    /// that carries only `requestState`, and the client's retry waits again. The waiting ends
    /// after [`Server::flow_budget`](crate::Server::flow_budget) with an error result; waiting
    /// rounds do not count towards the round cap. 2025-11-25: the request waits up to the budget
    /// and, once the flow finished, sends `notifications/elicitation/complete` to the client.
    /// In a task (the tasks extension) the task waits in place, `working`, up to the budget.
    pub async fn finished<T, F, Fut>(self, cx: &Cx, mut check: F) -> T
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Option<T>>,
    {
        let question = self.question;
        let flow = cx.flow_settings();
        let started = cx.flow_started(question);
        let this_round = tokio::time::Instant::now();
        let mut polls = 0u32;
        loop {
            if let Some(t) = check().await {
                if let Some(id) = &self.elicitation_id {
                    cx.elicitation_complete(id).await;
                }
                return t;
            }
            let waited = Duration::from_millis(cx.now_ms().saturating_sub(started));
            if waited >= flow.budget {
                let why = format!(
                    "`{question}` did not finish within {} s; call again to start over",
                    flow.budget.as_secs()
                );
                cx.end(Ending::Failed(why)).await
            }
            let spent = this_round.elapsed();
            // In a task there is no retry to answer: the wait goes on, up to the budget.
            let rounds = cx.revision().is_modern() && !cx.in_task();
            if rounds && spent >= flow.wait {
                cx.end(Ending::Retry).await
            }
            polls += 1;
            let note = format!("waiting for `{question}` to finish");
            cx.progress(f64::from(polls), None, Some(&note)).await;
            let left = if rounds {
                flow.wait.saturating_sub(spent)
            } else {
                flow.poll
            };
            tokio::time::sleep(flow.poll.min(left).max(Duration::from_millis(1))).await;
        }
    }
}
