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

use crate::protocol::{ElicitRequest, InputRequest, Revision};
use crate::question::advertise::AskKind;
use crate::sync::lock;
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::Mutex;

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

    fn as_str(self) -> &'static str {
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
    fn as_str(self) -> &'static str {
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

    fn as_str(self) -> &'static str {
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

/// At most this many distinct client names get a label of their own; later ones are `other`.
pub(crate) const MAX_CLIENT_LABELS: usize = 64;
/// At most this many distinct tool, prompt or resource names (a resource template's URIs are
/// the client's to choose); later ones are `other`.
pub(crate) const MAX_NAME_LABELS: usize = 256;
/// A client label is cut to this many characters.
const CLIENT_LABEL_CHARS: usize = 64;
/// A name label is cut to this many characters.
const NAME_LABEL_CHARS: usize = 128;

/// The label values a server has given out. A client's name comes from the wire, and so can a
/// resource's URI: each label set is bounded, so no client can grow the metrics without end.
#[derive(Debug, Default)]
pub(crate) struct Labels {
    clients: Mutex<BTreeSet<String>>,
    names: Mutex<BTreeSet<String>>,
}

impl Labels {
    /// The label of a client's `clientInfo.name`: `none` without one (or an empty one), the
    /// name with every character outside `[A-Za-z0-9 ._-]` made `_` and cut to 64 characters,
    /// or `other` once 64 distinct labels are out.
    pub(crate) fn client(&self, name: Option<&str>) -> String {
        match name {
            None | Some("") => "none".to_owned(),
            Some(name) => given(
                &self.clients,
                clean(name, CLIENT_LABEL_CHARS),
                MAX_CLIENT_LABELS,
            ),
        }
    }

    /// The label of a tool, prompt or resource name: as [`Labels::client`], cut to 128
    /// characters and bounded at 256.
    pub(crate) fn name(&self, name: &str) -> String {
        given(&self.names, clean(name, NAME_LABEL_CHARS), MAX_NAME_LABELS)
    }
}

/// `value` if it was given out before or there is room for it, else `other`.
fn given(set: &Mutex<BTreeSet<String>>, value: String, max: usize) -> String {
    let mut set = lock(set);
    if set.contains(&value) {
        return value;
    }
    if set.len() >= max {
        return "other".to_owned();
    }
    set.insert(value.clone());
    value
}

fn clean(s: &str, max_chars: usize) -> String {
    s.chars()
        .take(max_chars)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, ' ' | '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The call a pass belongs to, as its decisions are labelled.
pub(crate) struct Call<'a> {
    /// The request's revision.
    pub revision: Revision,
    /// `tools/call`, `prompts/get` or `resources/read`.
    pub method: &'a str,
    /// The tool, prompt or resource.
    pub name: &'a str,
    /// The client's `clientInfo.name`.
    pub client: Option<&'a str>,
}

/// The label values of one call.
struct Labelled {
    revision: &'static str,
    method: String,
    name: String,
    client: String,
}

impl Labelled {
    fn of(labels: &Labels, call: &Call<'_>) -> Labelled {
        Labelled {
            revision: call.revision.as_str(),
            method: call.method.to_owned(),
            name: labels.name(call.name),
            client: labels.client(call.client),
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

/// The `metrics` facade's side: what a recorder the application installed receives.
#[cfg(feature = "metrics")]
mod metered {
    use super::{Decision, Labelled, Outcome, kind_str};
    use std::sync::Once;

    /// Counter: questions sent to the client.
    pub(crate) const ASKED: &str = "rondo_questions_asked_total";
    /// Counter: questions sent again because the last answer did not fit.
    pub(crate) const RE_ASKED: &str = "rondo_questions_reasked_total";
    /// Counter: answers, by `action`.
    pub(crate) const ANSWERED: &str = "rondo_questions_answered_total";
    /// Counter: fallbacks taken, by `reason`.
    pub(crate) const FALLBACK: &str = "rondo_questions_fallback_total";
    /// Counter: questions that ended without an answer or a fallback, by `reason`.
    pub(crate) const UNANSWERED: &str = "rondo_questions_unanswered_total";
    /// Histogram: rounds per finished multi-round request.
    pub(crate) const ROUNDS: &str = "rondo_request_rounds";
    /// Histogram: bytes of each `requestState` sent.
    pub(crate) const STATE_BYTES: &str = "rondo_request_state_bytes";

    fn describe() {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            metrics::describe_counter!(ASKED, "Questions sent to the client");
            metrics::describe_counter!(
                RE_ASKED,
                "Questions sent again because the last answer did not fit"
            );
            metrics::describe_counter!(ANSWERED, "Questions answered, by action");
            metrics::describe_counter!(FALLBACK, "Question fallbacks taken, by reason");
            metrics::describe_counter!(
                UNANSWERED,
                "Questions that ended without an answer or a fallback, by reason"
            );
            metrics::describe_histogram!(ROUNDS, "Rounds per finished multi-round request");
            metrics::describe_histogram!(
                STATE_BYTES,
                metrics::Unit::Bytes,
                "Size of each requestState sent"
            );
        });
    }

    pub(super) fn decision(
        l: &Labelled,
        d: &Decision,
        action: Option<&'static str>,
        reason: Option<&'static str>,
    ) {
        describe();
        let mut labels = vec![
            ("question", d.key.clone()),
            ("kind", kind_str(d.kind).to_owned()),
            ("method", l.method.clone()),
            ("name", l.name.clone()),
            ("client", l.client.clone()),
            ("revision", l.revision.to_owned()),
        ];
        let name = match d.outcome {
            Outcome::Asked => ASKED,
            Outcome::ReAsked => RE_ASKED,
            Outcome::Answered(_) => ANSWERED,
            Outcome::FellBack(_) => FALLBACK,
            Outcome::Unanswered(_) => UNANSWERED,
        };
        if let Some(action) = action {
            labels.push(("action", action.to_owned()));
        }
        if let Some(reason) = reason {
            labels.push(("reason", reason.to_owned()));
        }
        metrics::counter!(name, &labels).increment(1);
    }

    pub(super) fn rounds(l: &Labelled, rounds: u32) {
        describe();
        let labels = [
            ("method", l.method.clone()),
            ("name", l.name.clone()),
            ("client", l.client.clone()),
            ("revision", l.revision.to_owned()),
        ];
        metrics::histogram!(ROUNDS, &labels).record(f64::from(rounds));
    }

    pub(super) fn state_bytes(method: &str, name: String, bytes: usize) {
        describe();
        let labels = [("method", method.to_owned()), ("name", name)];
        metrics::histogram!(STATE_BYTES, &labels).record(bytes as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn client_labels_are_cleaned_cut_and_bounded() {
        let labels = Labels::default();
        assert_eq!(labels.client(None), "none");
        assert_eq!(labels.client(Some("")), "none");
        assert_eq!(labels.client(Some("Claude Desktop")), "Claude Desktop");
        assert_eq!(labels.client(Some("a\"b}\nc{x=\"y\"}")), "a_b__c_x__y__");
        let long = "x".repeat(500);
        assert_eq!(labels.client(Some(&long)).len(), CLIENT_LABEL_CHARS);
        assert_eq!(labels.client(Some("é")), "_");
        // 5 distinct so far; fill up to the cap, then every new name is `other`.
        for i in 0..MAX_CLIENT_LABELS - 4 {
            let _ = labels.client(Some(&format!("client-{i}")));
        }
        assert_eq!(labels.client(Some("one more")), "other");
        assert_eq!(labels.client(Some("Claude Desktop")), "Claude Desktop");
        assert_eq!(labels.client(Some("client-0")), "client-0");
        assert_eq!(lock(&labels.clients).len(), MAX_CLIENT_LABELS);
    }

    #[test]
    fn name_labels_are_bounded_apart_from_clients() {
        let labels = Labels::default();
        for i in 0..MAX_NAME_LABELS {
            assert_eq!(
                labels.name(&format!("test://r/{i}")),
                format!("test___r_{i}")
            );
        }
        assert_eq!(labels.name("test://r/new"), "other");
        assert_eq!(labels.client(Some("still room")), "still room");
    }

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
