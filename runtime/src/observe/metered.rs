//! The `metrics` facade's side: what a recorder the application installed receives.

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
