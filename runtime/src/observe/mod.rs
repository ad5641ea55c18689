//! What each question came to, told once per call (design §28): a `tracing` event per
//! decision under the target `rondo::question` (level `DEBUG`), one per finished multi-round
//! request under `rondo::request`, and, with the `metrics` feature, counters and histograms
//! through the `metrics` facade.
//!
//! A 2026-07-28 handler runs from the top on every round, so the same decision is made again
//! on every later round. Decisions are collected per pass ([`Decision`]) and told when the
//! pass ends, by what it ended in ([`Pass`]): a question is told as asked only when its
//! `InputRequiredResult` goes out, an answer only in the round it arrived, and a fallback or
//! an unanswered question only in the pass that ends the call (each earlier pass made it too,
//! and its result was dropped). A call the client abandons between rounds tells its
//! questions and answers, never its fallbacks: the call never ended.

mod labels;
#[cfg(feature = "metrics")]
mod metered;

use labels::Labelled;
pub(crate) use labels::{Call, Labels};

use crate::protocol::AskKind;
use crate::protocol::{ElicitRequest, InputRequest};
use serde_json::Value;

/// What the user did with a question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    /// Answered it (every sampling and roots answer; an elicitation's `accept`).
    Accept,
    /// Said no.
    Decline,
    /// Dismissed it.
    Cancel,
}

impl Action {
    /// The action of an answer: an elicitation's `action`; anything else is an acceptance.
    pub(crate) fn of(answer: &Value) -> Action {
        match answer.get("action").and_then(Value::as_str) {
            Some("decline") => Action::Decline,
            Some("cancel") => Action::Cancel,
            _ => Action::Accept,
        }
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Action::Accept => "accept",
            Action::Decline => "decline",
            Action::Cancel => "cancel",
        }
    }
}

/// Why a question took its fallback, or went unanswered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    /// The client did not declare what the question needs.
    CapabilityMissing,
    /// The client declared it and the server's client policy removed it.
    Policy,
    /// The client answered with an error (2025-11-25).
    Rejected,
    /// The answer could not be read, or could not be used.
    Unparsable,
    /// No answer in time (2025-11-25).
    TimedOut,
    /// The client went away before answering (2025-11-25).
    Disconnected,
}

impl Reason {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Reason::CapabilityMissing => "capability_missing",
            Reason::Policy => "policy",
            Reason::Rejected => "rejected",
            Reason::Unparsable => "unparsable",
            Reason::TimedOut => "timed_out",
            Reason::Disconnected => "disconnected",
        }
    }
}

/// What one question came to, in one pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Sent to the client.
    Asked,
    /// Sent again, saying why the last answer did not fit (2026-07-28).
    ReAsked,
    /// Answered.
    Answered(Action),
    /// Its fallback ran.
    FellBack(Reason),
    /// No answer and no fallback: the request ended, or a form nobody answered in time was
    /// read as dismissed.
    Unanswered(Reason),
}

impl Outcome {
    /// Whether this ends the question for the call: told only by the pass that ends it.
    fn settles(self) -> bool {
        matches!(self, Outcome::FellBack(_) | Outcome::Unanswered(_))
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Outcome::Asked => "asked",
            Outcome::ReAsked => "re_asked",
            Outcome::Answered(_) => "answered",
            Outcome::FellBack(_) => "fallback",
            Outcome::Unanswered(_) => "unanswered",
        }
    }
}

/// One decision about a question, kept until its pass ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Decision {
    /// The question's key.
    pub key: String,
    /// What it asks.
    pub kind: AskKind,
    /// What it came to.
    pub outcome: Outcome,
}

/// What a question asks, read off its rendering.
pub(crate) fn kind_of(request: &InputRequest) -> AskKind {
    match request {
        InputRequest::Elicit(ElicitRequest::Form { .. }) => AskKind::Form,
        InputRequest::Elicit(ElicitRequest::Url { .. }) => AskKind::Url,
        InputRequest::Sample(_) => AskKind::Sampling,
        InputRequest::ListRoots => AskKind::Roots,
    }
}

fn kind_str(kind: AskKind) -> &'static str {
    match kind {
        AskKind::Form => "form",
        AskKind::Url => "url",
        AskKind::Sampling => "sampling",
        AskKind::Roots => "roots",
    }
}

/// How a pass ended, which decides what of it is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pass {
    /// A 2026-07-28 pass that answered an `InputRequiredResult` with its questions: its
    /// questions and fresh answers are told; its fallbacks are made again by the next pass.
    Sent,
    /// A 2026-07-28 pass that only waits for an out-of-band flow (no questions go out): its
    /// fresh answers are told.
    Waited,
    /// The 2026-07-28 pass that ends the call: its fresh answers and what settled are told;
    /// questions it recorded were never sent (the call ended instead).
    Last,
    /// A call that runs once (2025-11-25, a task): everything.
    Whole,
}

impl Pass {
    fn tells(self, outcome: Outcome) -> bool {
        match self {
            Pass::Whole => true,
            Pass::Sent => !outcome.settles(),
            Pass::Waited => matches!(outcome, Outcome::Answered(_)),
            Pass::Last => !matches!(outcome, Outcome::Asked | Outcome::ReAsked),
        }
    }
}

/// Tells what of `decisions` a pass that ended as `pass` tells.
pub(crate) fn tell(labels: &Labels, call: &Call<'_>, decisions: Vec<Decision>, pass: Pass) {
    let told: Vec<Decision> = decisions
        .into_iter()
        .filter(|d| pass.tells(d.outcome))
        .collect();
    if told.is_empty() {
        return;
    }
    #[cfg(feature = "otel")]
    span_questions(&told);
    let l = Labelled::of(labels, call);
    for d in &told {
        one(&l, d);
    }
}

fn one(l: &Labelled, d: &Decision) {
    let (action, reason) = match d.outcome {
        Outcome::Answered(a) => (Some(a.as_str()), None),
        Outcome::FellBack(r) | Outcome::Unanswered(r) => (None, Some(r.as_str())),
        Outcome::Asked | Outcome::ReAsked => (None, None),
    };
    tracing::debug!(
        target: "rondo::question",
        question = d.key,
        kind = kind_str(d.kind),
        outcome = d.outcome.as_str(),
        action,
        reason,
        method = l.method,
        name = l.name,
        client = l.client,
        revision = l.revision,
        "question decided"
    );
    #[cfg(feature = "metrics")]
    metered::decision(l, d, action, reason);
}

#[cfg(feature = "otel")]
/// Records on the request's OpenTelemetry span (design §33) what the current pass told of its
/// questions: the keys asked, answered (with the action) and settled by a fallback or
/// unanswered (with the reason).
fn span_questions(told: &[Decision]) {
    use tracing_opentelemetry::OpenTelemetrySpanExt as _;
    let span = tracing::Span::current();
    if span.is_disabled() {
        return;
    }
    let of = |pick: fn(&Decision) -> Option<String>| -> Vec<opentelemetry::StringValue> {
        told.iter()
            .filter_map(pick)
            .map(opentelemetry::StringValue::from)
            .collect()
    };
    let asked =
        of(|d| matches!(d.outcome, Outcome::Asked | Outcome::ReAsked).then(|| d.key.clone()));
    let answered = of(|d| match d.outcome {
        Outcome::Answered(a) => Some(format!("{}:{}", d.key, a.as_str())),
        _ => None,
    });
    let fallback = of(|d| match d.outcome {
        Outcome::FellBack(r) => Some(format!("{}:{}", d.key, r.as_str())),
        _ => None,
    });
    let unanswered = of(|d| match d.outcome {
        Outcome::Unanswered(r) => Some(format!("{}:{}", d.key, r.as_str())),
        _ => None,
    });
    for (key, values) in [
        ("rondo.questions.asked", asked),
        ("rondo.questions.answered", answered),
        ("rondo.questions.fallback", fallback),
        ("rondo.questions.unanswered", unanswered),
    ] {
        if !values.is_empty() {
            span.set_attribute(key, opentelemetry::Value::Array(values.into()));
        }
    }
}

/// Tells how many rounds a multi-round request took, once it ended.
pub(crate) fn rounds(labels: &Labels, call: &Call<'_>, rounds: u32) {
    let l = Labelled::of(labels, call);
    tracing::debug!(
        target: "rondo::request",
        rounds,
        method = l.method,
        name = l.name,
        client = l.client,
        revision = l.revision,
        "multi-round request ended"
    );
    #[cfg(feature = "metrics")]
    metered::rounds(&l, rounds);
}

/// Tells the size of a `requestState` sent out (labelled by method and name only: a client's
/// label is not given out for it).
pub(crate) fn state_bytes(labels: &Labels, call: &Call<'_>, bytes: usize) {
    let name = labels.name(call.name);
    tracing::debug!(
        target: "rondo::request",
        state_bytes = bytes,
        method = call.method,
        name,
        "requestState sealed"
    );
    #[cfg(feature = "metrics")]
    metered::state_bytes(call.method, name, bytes);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn actions_come_from_an_elicitation_answer() {
        assert_eq!(Action::of(&json!({"action": "accept"})), Action::Accept);
        assert_eq!(Action::of(&json!({"action": "decline"})), Action::Decline);
        assert_eq!(Action::of(&json!({"action": "cancel"})), Action::Cancel);
        assert_eq!(Action::of(&json!({"role": "assistant"})), Action::Accept);
        assert_eq!(Action::of(&json!({"roots": []})), Action::Accept);
    }

    #[test]
    fn each_pass_tells_what_it_decided_for_good() {
        use Outcome::*;
        let all = [
            Asked,
            ReAsked,
            Answered(Action::Decline),
            FellBack(Reason::Policy),
            Unanswered(Reason::TimedOut),
        ];
        let told = |pass: Pass| -> Vec<Outcome> {
            all.iter().copied().filter(|o| pass.tells(*o)).collect()
        };
        assert_eq!(
            told(Pass::Sent),
            [Asked, ReAsked, Answered(Action::Decline)]
        );
        assert_eq!(told(Pass::Waited), [Answered(Action::Decline)]);
        assert_eq!(
            told(Pass::Last),
            [
                Answered(Action::Decline),
                FellBack(Reason::Policy),
                Unanswered(Reason::TimedOut)
            ]
        );
        assert_eq!(told(Pass::Whole), all);
    }
}
