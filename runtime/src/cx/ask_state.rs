//! The mutable state of one request's asks: the answers it may use, the questions the current
//! pass recorded, its memoised values, and how the handler asked to end the request. The
//! handler writes it through [`Cx`](super::Cx); the driver reads it after every poll.

use crate::observe::{Action, Decision, Outcome};
use crate::protocol::AskKind;
use crate::protocol::{CallToolResult, Error, InputRequest, JsonObject};
use crate::state::{Answer, Asked, Carried, QuestionId};
use crate::tasks::TaskId;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use tokio::sync::Notify;

/// How a handler ends its request without returning: written here, read by the driver after
/// the poll that wrote it (the handler's future then never completes, and is dropped). The
/// first ending wins. It is the one channel from a handler to the driver besides the handler's
/// result, so any further way to end a request early is a variant of this enum.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ending {
    /// Answer with this JSON-RPC error ([`Cx::fail`](super::Cx::fail),
    /// [`Cx::require`](super::Cx::require), a question from a method that cannot ask, a
    /// question whose fallback refuses).
    Error(Error),
    /// A failure the model can read: a tool answers an `isError` result with this text, a
    /// prompt or a resource an internal error (a question the client answered with an error, a
    /// form answered wrongly on 2025-11-25, an out-of-band flow past its time budget).
    Failed(String),
    /// The tool ends with this complete result (a fallback that ends the tool early).
    Result(CallToolResult),
    /// 2026-07-28: answer an `InputRequiredResult` carrying only `requestState`, so the client
    /// retries (an out-of-band flow is still unfinished).
    Retry,
}

/// How an answer reads, for [`AskState::answer`].
#[derive(Debug)]
pub(crate) enum Reading<T> {
    /// The answer.
    Value(T),
    /// It does not fit: drop it and ask again.
    Again(String),
    /// It cannot be used, and asking again would get the same answer: the caller falls back.
    Unusable(String),
}

/// A question recorded during one pass of a 2026-07-28 handler.
#[derive(Debug, Clone)]
pub(crate) struct Recorded {
    /// Which question.
    pub question: QuestionId,
    /// Its rendering, as sent in `inputRequests`.
    pub request: InputRequest,
}

/// Mutable per-request ask state (never held across an `.await`).
#[derive(Debug, Default)]
pub(crate) struct AskState {
    /// Whether this method may ask for input ([`Method::may_ask_for_input`](crate::protocol::Method::may_ask_for_input)).
    pub may_ask: bool,
    /// Answers from sealed state plus the fresh ones matched to last round's questions.
    pub answers: Vec<Answer>,
    /// `inputResponses` sent without a `requestState` (no question was rendered for them yet):
    /// matched by key alone to the questions asked in this pass.
    pub unbound: JsonObject,
    /// Memoised values: those from sealed state plus those computed now.
    pub memo: JsonObject,
    /// Questions recorded in this pass.
    pub questions: Vec<Recorded>,
    /// How the handler asked to end the request, if it did.
    ending: Option<Ending>,
    /// How many earlier rounds only waited (see [`Carried::waits`]).
    pub waits: u32,
    /// When each out-of-band flow started to be waited for (see [`Carried::flows`]).
    pub flows: BTreeMap<String, u64>,
    /// The effects of this flow that [`Cx::once`](super::Cx::once) found or claimed in the
    /// ledger (see [`Carried::once`]).
    pub once: BTreeSet<String>,
    /// The last answer of this pass that did not fit and was asked again, with why: the round
    /// cap's error names it.
    pub last_problem: Option<String>,
    /// Whether a `task_start = explicit` tool may become a task here ([`Cx::start_task`](super::Cx::start_task)).
    pub start: StartPhase,
    /// Set while the request runs as a task (the tasks extension).
    pub task: Option<TaskLink>,
    /// The questions whose answers came with this request (or, in a task, were injected) and
    /// were not read yet: read, they are told as answered (`observe`), once per call.
    fresh: Vec<QuestionId>,
    /// What this pass decided about its questions, told when it ends (`observe::tell`).
    pub told: Vec<Decision>,
}

/// Where a `task_start = explicit` tool stands.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StartPhase {
    /// It cannot become a task here (not such a tool, the extension not declared, or already
    /// a task): `start_task` returns at once.
    #[default]
    No,
    /// It may: `start_task` asks the driver to make it one.
    Armed,
    /// `start_task` was called; the driver reads this after the poll and starts the task.
    Requested,
}

/// A running task's side of the ask state: its questions go to the task's record instead of
/// an `InputRequiredResult`, and its answers come from `tasks/update` (design §25).
#[derive(Debug)]
pub(crate) struct TaskLink {
    /// The task's id.
    pub id: TaskId,
    /// Woken when answers were injected: the tool's waiting asks look again.
    pub notify: Arc<Notify>,
    /// Questions parked in the store and not yet answered, with their wire keys.
    pub parked: Vec<(QuestionId, String)>,
    /// Every wire key this task issued: a key is never issued twice in one task.
    pub issued: BTreeSet<String>,
    /// How many ask futures wait for each question now (the same question asked twice, by a
    /// `join!`, is one question with two waiters).
    waiting: Vec<(QuestionId, usize)>,
    /// Wire keys of parked questions whose every ask future was dropped unanswered: the
    /// runner removes them from the record's `inputRequests` (a drop cannot await the store).
    pub withdrawn: Vec<String>,
    /// When the tool last set the task's status message (ms since the epoch).
    pub status_written_ms: Option<u64>,
}

impl TaskLink {
    /// The link of the task `id`, with nothing asked yet.
    pub(crate) fn new(id: TaskId) -> TaskLink {
        TaskLink {
            id,
            notify: Arc::new(Notify::new()),
            parked: Vec::new(),
            issued: BTreeSet::new(),
            waiting: Vec::new(),
            withdrawn: Vec::new(),
            status_written_ms: None,
        }
    }

    /// A wire key for `key` never issued in this task: `key` itself the first time, then
    /// `key~2`, `key~3`, ...
    fn mint(&mut self, key: &str) -> String {
        let mut wire = key.to_owned();
        let mut n = 2u32;
        while self.issued.contains(&wire) {
            wire = format!("{key}~{n}");
            n += 1;
        }
        self.issued.insert(wire.clone());
        wire
    }
}

/// What [`AskState::answer`] found for a question.
#[derive(Debug)]
pub(crate) enum Found<T> {
    /// The answer, read.
    Answer(T),
    /// An answer that cannot be used, and why (it stays: it would be the same next time).
    Unusable(String),
    /// An answer that did not fit, and why: dropped, so the question is asked again, saying why.
    Again(String),
    /// No answer.
    Nothing,
}

impl AskState {
    /// The state of a request that may ask, starting from what earlier rounds carried (or
    /// nothing, on the first round) and the `inputResponses` that came without state.
    pub(crate) fn asking(carried: Carried, unbound: JsonObject) -> AskState {
        AskState {
            may_ask: true,
            answers: carried.answers,
            unbound,
            memo: carried.memo,
            waits: carried.waits,
            flows: carried.flows,
            once: carried.once.into_iter().collect(),
            ..AskState::default()
        }
    }

    /// Records how the request ends; an earlier ending stays.
    pub(crate) fn end(&mut self, ending: Ending) {
        self.ending.get_or_insert(ending);
    }

    /// The ending the handler recorded, taken by the driver.
    pub(crate) fn take_ending(&mut self) -> Option<Ending> {
        self.ending.take()
    }

    /// The answer to `question`, read, if one was given. An answer sent without state under
    /// the question's key is bound to it first, unless the question carries `consent`: consent
    /// counts only for a rendering the server sent (bound through `requestState`). An answer
    /// that reads [`Reading::Again`] is dropped, so the question is asked again (the reason is
    /// kept for the round cap's error); one that reads [`Reading::Unusable`] stays (it would be
    /// the same next time).
    pub(crate) fn answer<T>(
        &mut self,
        question: &QuestionId,
        consent: bool,
        read: impl FnOnce(Value) -> Reading<T>,
    ) -> Found<T> {
        if let Some(value) = self.unbound.remove(&question.key) {
            if consent {
                tracing::warn!(
                    key = question.key,
                    "an answer to a consent question came before the question was shown; ignored"
                );
            } else {
                self.answers.push(Answer {
                    question: question.clone(),
                    value,
                });
                self.fresh.push(question.clone());
            }
        }
        let Some(i) = self.answers.iter().position(|a| a.question == *question) else {
            return Found::Nothing;
        };
        match read(self.answers[i].value.clone()) {
            Reading::Value(t) => Found::Answer(t),
            Reading::Unusable(why) => Found::Unusable(why),
            Reading::Again(why) => {
                tracing::debug!(key = question.key, %why, "answer did not fit; asking again");
                self.answers.remove(i);
                self.last_problem = Some(format!(
                    "the last answer to `{}` was asked again because {why}",
                    question.key
                ));
                Found::Again(why)
            }
        }
    }

    /// Notes what `key`'s question came to in this pass.
    pub(crate) fn tell(&mut self, key: &str, kind: AskKind, outcome: Outcome) {
        self.told.push(Decision {
            key: key.to_owned(),
            kind,
            outcome,
        });
    }

    /// Notes that `question` was answered, when its answer came with this request (an answer
    /// carried from an earlier round was told in that round). Call before [`AskState::narrow`]:
    /// the action is read off the answer as received.
    pub(crate) fn tell_answered(&mut self, question: &QuestionId, kind: AskKind) {
        let Some(i) = self.fresh.iter().position(|q| q == question) else {
            return;
        };
        self.fresh.swap_remove(i);
        if let Some(a) = self.answers.iter().find(|a| a.question == *question) {
            let action = Action::of(&a.value);
            self.tell(&question.key, kind, Outcome::Answered(action));
        }
    }

    /// Replaces the kept answer to `question` with the part of it that was read (`part`
    /// returns `None` when that is all of it): what later rounds carry.
    pub(crate) fn narrow(
        &mut self,
        question: &QuestionId,
        part: impl FnOnce(&Value) -> Option<Value>,
    ) {
        if let Some(a) = self.answers.iter_mut().find(|a| a.question == *question)
            && let Some(read) = part(&a.value)
        {
            a.value = read;
        }
    }

    /// Records `question` for this pass's `InputRequiredResult` (once, however often it is
    /// asked), and notes it as `outcome` (asked, or asked again) the first time.
    pub(crate) fn record(&mut self, question: QuestionId, request: InputRequest, outcome: Outcome) {
        if !self.questions.iter().any(|q| q.question == question) {
            self.tell(&question.key, crate::observe::kind_of(&request), outcome);
            self.questions.push(Recorded { question, request });
        }
    }

    /// Whether `question` waits in the task's record for its answer.
    pub(crate) fn is_parked(&self, question: &QuestionId) -> bool {
        self.task
            .as_ref()
            .is_some_and(|t| t.parked.iter().any(|(q, _)| q == question))
    }

    /// The questions recorded since the last call, given wire keys never issued before in this
    /// task and parked: what goes into the record's `inputRequests`. Empty outside a task.
    pub(crate) fn park_recorded(&mut self) -> JsonObject {
        let mut wire = JsonObject::new();
        let Some(task) = &mut self.task else {
            return wire;
        };
        for q in std::mem::take(&mut self.questions) {
            let key = task.mint(&q.question.key);
            wire.insert(key.clone(), q.request.to_wire());
            task.parked.push((q.question, key));
        }
        wire
    }

    /// One more ask future waits for `question` in this task (nothing outside a task).
    pub(crate) fn start_waiting(&mut self, question: &QuestionId) {
        let Some(task) = &mut self.task else {
            return;
        };
        match task.waiting.iter_mut().find(|(q, _)| q == question) {
            Some((_, n)) => *n += 1,
            None => task.waiting.push((question.clone(), 1)),
        }
    }

    /// An ask future for `question` ended (answered, or dropped by the tool). When it was the
    /// last one, the question is withdrawn: recorded and not parked yet, it is forgotten;
    /// parked, its wire key is queued for the runner to remove from the record (the key stays
    /// issued, so a late answer to it is ignored and it is never used again). An answered
    /// question is neither, so nothing happens.
    pub(crate) fn stop_waiting(&mut self, question: &QuestionId) {
        let Some(task) = &mut self.task else {
            return;
        };
        let Some(i) = task.waiting.iter().position(|(q, _)| q == question) else {
            return;
        };
        task.waiting[i].1 -= 1;
        if task.waiting[i].1 > 0 {
            return;
        }
        task.waiting.swap_remove(i);
        self.questions.retain(|q| q.question != *question);
        if let Some(i) = task.parked.iter().position(|(q, _)| q == question) {
            let (_, key) = task.parked.swap_remove(i);
            tracing::debug!(key, "a question the tool stopped waiting for is withdrawn");
            task.withdrawn.push(key);
        }
    }

    /// Whether withdrawn questions wait for the runner to remove them from the record.
    pub(crate) fn has_withdrawn(&self) -> bool {
        self.task.as_ref().is_some_and(|t| !t.withdrawn.is_empty())
    }

    /// Takes the wire keys of the withdrawn questions (empty outside a task).
    pub(crate) fn take_withdrawn(&mut self) -> Vec<String> {
        self.task
            .as_mut()
            .map(|t| std::mem::take(&mut t.withdrawn))
            .unwrap_or_default()
    }

    /// Takes the answers a task received (wire key → answer) for its parked questions, and
    /// returns how many were for one; others are ignored (the store only accepts pending
    /// keys, so there are none unless a record was tampered with).
    pub(crate) fn inject(&mut self, answers: JsonObject) -> usize {
        let Some(task) = &mut self.task else {
            return 0;
        };
        let mut taken = 0;
        for (key, value) in answers {
            if let Some(i) = task.parked.iter().position(|(_, k)| *k == key) {
                let (question, _) = task.parked.swap_remove(i);
                self.fresh.push(question.clone());
                self.answers.push(Answer { question, value });
                taken += 1;
            }
        }
        taken
    }

    /// Replaces an earlier answer to the same question with a fresh one (a retry's
    /// `inputResponses`).
    pub(crate) fn accept(&mut self, asked: Asked, value: Value) {
        self.answers.retain(|a| a.question != asked.question);
        self.fresh.push(asked.question.clone());
        self.answers.push(Answer {
            question: asked.question,
            value,
        });
    }

    /// The `inputRequests` of this pass and what the next round carries. Wire keys are the
    /// questions' keys, unless two questions with one key but different renderings were asked:
    /// then each gets `~` and 8 hex digits of its digest.
    /// `waited` says whether this round only waited (no questions): it then counts in
    /// [`Carried::waits`].
    pub(crate) fn next_round(&self, round: u32, waited: bool) -> (JsonObject, Carried) {
        let mut requests = JsonObject::new();
        let mut asked = Vec::with_capacity(self.questions.len());
        for q in &self.questions {
            let key = &q.question.key;
            let collides = self
                .questions
                .iter()
                .filter(|o| o.question.key == *key)
                .count()
                > 1;
            let wire_key = if collides {
                format!("{key}~{}", &q.question.digest[..8])
            } else {
                key.clone()
            };
            requests.insert(wire_key.clone(), q.request.to_wire());
            asked.push(Asked {
                wire_key,
                question: q.question.clone(),
            });
        }
        let carried = Carried {
            // The flow's id is the context's, set by the caller (`Cx::flow_id`).
            flow: String::new(),
            round,
            asked,
            answers: self.answers.clone(),
            memo: self.memo.clone(),
            waits: self.waits + u32::from(waited),
            flows: self.flows.clone(),
            once: self.once.iter().cloned().collect(),
            // The span's, set by the caller (`otel::carried`).
            #[cfg(feature = "otel")]
            trace: None,
        };
        (requests, carried)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn in_task() -> (AskState, QuestionId) {
        let mut asks = AskState::asking(Carried::default(), JsonObject::new());
        asks.task = Some(TaskLink::new(TaskId::random()));
        let q = QuestionId {
            key: "q".into(),
            digest: "0123456789abcdef".into(),
        };
        (asks, q)
    }

    #[test]
    fn a_question_is_withdrawn_when_its_last_waiter_goes_and_its_key_is_never_reused() {
        let (mut asks, q) = in_task();
        // Two asks of one question (a `join!`): one question, two waiters.
        asks.start_waiting(&q);
        asks.start_waiting(&q);
        asks.record(q.clone(), InputRequest::ListRoots, Outcome::Asked);
        let parked = asks.park_recorded();
        assert_eq!(parked.keys().collect::<Vec<_>>(), ["q"]);
        asks.stop_waiting(&q);
        assert!(!asks.has_withdrawn(), "one waiter is left");
        asks.stop_waiting(&q);
        assert_eq!(asks.take_withdrawn(), ["q"]);
        assert!(!asks.is_parked(&q));
        // Asked again, it gets a key of its own; an answer to the old one finds nothing.
        asks.start_waiting(&q);
        asks.record(q.clone(), InputRequest::ListRoots, Outcome::Asked);
        assert_eq!(asks.park_recorded().keys().collect::<Vec<_>>(), ["q~2"]);
        let late: JsonObject = [("q".to_owned(), Value::Null)].into_iter().collect();
        assert_eq!(asks.inject(late), 0);
    }

    #[test]
    fn a_question_dropped_before_it_was_parked_is_never_parked() {
        let (mut asks, q) = in_task();
        asks.start_waiting(&q);
        asks.record(q.clone(), InputRequest::ListRoots, Outcome::Asked);
        asks.stop_waiting(&q);
        assert!(asks.park_recorded().is_empty());
        assert!(!asks.has_withdrawn(), "nothing reached the record");
    }
}
