//! What a task store holds: one [`TaskRecord`] per task, and the rules every write keeps.

use super::StoreError;
use crate::protocol::{Error, JsonObject};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeSet;
use std::fmt;

/// A task's id: 128 bits from the operating system's generator, as 32 lowercase hex digits.
///
/// It is the client's only handle on the task (`taskId`), so it must not be guessable; a store
/// also binds each record to its principal (see [`TaskStore::get`](super::TaskStore::get)).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TaskId(String);

impl TaskId {
    /// A fresh id from the operating system's generator.
    pub fn random() -> Self {
        TaskId(crate::state::random_id())
    }

    /// The id a client sent (`params.taskId`), when it has the shape of one this crate mints
    /// (32 lowercase hex digits). Anything else names no task, so the caller answers it as an
    /// unknown task without asking the store (and no client text reaches a store's keys).
    pub fn parse(text: &str) -> Option<Self> {
        let ok = text.len() == 32
            && text
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        ok.then(|| TaskId(text.to_owned()))
    }

    /// The id as the wire spells it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A task's state, spelled as the tasks extension spells it on the wire.
///
/// `working` and `input_required` may alternate; `completed`, `failed` and `cancelled` are
/// terminal: a store never changes a terminal record again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// The tool is running.
    Working,
    /// The tool waits for answers to its pending questions (`inputRequests`).
    InputRequired,
    /// The tool returned a result (also a result with `isError: true`).
    Completed,
    /// The request failed with a JSON-RPC error, or its instance stopped before it finished.
    Failed,
    /// The client cancelled it.
    Cancelled,
}

impl TaskStatus {
    /// Whether the state is final (`completed`, `failed` or `cancelled`).
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }

    /// The wire spelling (`input_required`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Working => "working",
            TaskStatus::InputRequired => "input_required",
            TaskStatus::Completed => "completed",
            TaskStatus::Failed => "failed",
            TaskStatus::Cancelled => "cancelled",
        }
    }
}

/// How a terminal task ended: what `tasks/get` inlines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The tool's result (`completed`), as the wire carries it.
    #[serde(rename = "result")]
    Success(Value),
    /// The JSON-RPC error the request ended with (`failed`).
    Error(Error),
}

/// Which server instance runs a task's future, and until when it has promised to.
///
/// The instance renews it while the tool runs ([`renew_lease`]); once `now > until_ms` the
/// lease has lapsed for good: it cannot be renewed, and any reader settles the task
/// ([`settle_lapsed`]).
///
/// [`renew_lease`]: super::TaskStore::renew_lease
/// [`settle_lapsed`]: super::TaskStore::settle_lapsed
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lease {
    /// The running instance's id (random per process, chosen by the engine).
    pub owner: String,
    /// Until when the lease holds, ms since the epoch (inclusive).
    pub until_ms: u64,
}

/// The message of a task whose instance stopped before the tool finished (`failed`).
pub const LAPSED_MESSAGE: &str = "The server instance running this task stopped before it finished";

/// Everything a store keeps about one task. The fields are public plain data: the engine reads
/// a record, changes it and writes it back with [`TaskStore::put_if`](super::TaskStore::put_if).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskRecord {
    /// The task's id.
    pub id: TaskId,
    /// Who created it: only the same principal sees it (`None`: a server without
    /// authentication, whose tasks only principal-less requests see).
    pub principal: Option<String>,
    /// The tool it runs.
    pub tool: String,
    /// Its state.
    pub status: TaskStatus,
    /// A message for people (`statusMessage`).
    pub status_message: Option<String>,
    /// When it was created, ms since the epoch.
    pub created_at_ms: u64,
    /// When it last changed, ms since the epoch.
    pub last_updated_at_ms: u64,
    /// How long it is kept after creation (`ttlMs`): never forgotten before
    /// `created_at_ms + ttl_ms`.
    pub ttl_ms: u64,
    /// How often the client should poll (`pollIntervalMs`).
    pub poll_interval_ms: u64,
    /// The questions waiting for answers, as the wire carries them (`inputRequests`).
    pub pending: JsonObject,
    /// Every question key this task ever asked: a key is never asked twice in one task.
    pub asked: BTreeSet<String>,
    /// Answers received (`tasks/update`) and not yet taken by the running tool.
    pub answers: JsonObject,
    /// How it ended: `Some` exactly when `completed` (a result) or `failed` (an error).
    pub outcome: Option<Outcome>,
    /// Whether the client asked to cancel it (`tasks/cancel`); never goes back to `false`.
    pub cancel_requested: bool,
    /// Which instance runs its future, while one does.
    pub lease: Option<Lease>,
    /// Bumped by the store on every write: the compare-and-set token of
    /// [`TaskStore::put_if`](super::TaskStore::put_if).
    pub version: u64,
}

impl TaskRecord {
    /// A new `working` task with a fresh id, run by `owner` until `lease_until_ms`.
    pub fn new(
        principal: Option<String>,
        tool: impl Into<String>,
        now_ms: u64,
        ttl_ms: u64,
        poll_interval_ms: u64,
        lease: Lease,
    ) -> Self {
        TaskRecord {
            id: TaskId::random(),
            principal,
            tool: tool.into(),
            status: TaskStatus::Working,
            status_message: None,
            created_at_ms: now_ms,
            last_updated_at_ms: now_ms,
            ttl_ms,
            poll_interval_ms,
            pending: JsonObject::new(),
            asked: BTreeSet::new(),
            answers: JsonObject::new(),
            outcome: None,
            cancel_requested: false,
            lease: Some(lease),
            version: 1,
        }
    }

    /// The last instant it is kept (`created_at_ms + ttl_ms`); it is gone after it.
    pub fn expires_at_ms(&self) -> u64 {
        self.created_at_ms.saturating_add(self.ttl_ms)
    }

    /// Whether it has expired at `now_ms`.
    pub fn is_expired(&self, now_ms: u64) -> bool {
        now_ms > self.expires_at_ms()
    }

    /// Whether `principal` owns it.
    pub fn is_owned_by(&self, principal: Option<&str>) -> bool {
        self.principal.as_deref() == principal
    }

    /// Whether it is still running (not terminal) but its running instance's lease lapsed
    /// (or it never had one): nobody will finish it.
    pub fn lease_lapsed(&self, now_ms: u64) -> bool {
        !self.status.is_terminal() && self.lease.as_ref().is_none_or(|l| now_ms > l.until_ms)
    }

    /// Checks the record on its own: the outcome matches the status, and every pending or
    /// answered key was asked.
    pub(crate) fn check(&self) -> Result<(), StoreError> {
        let outcome_fits = match (self.status, &self.outcome) {
            (TaskStatus::Completed, Some(Outcome::Success(_))) => true,
            (TaskStatus::Failed, Some(Outcome::Error(_))) => true,
            (_, None) => !matches!(self.status, TaskStatus::Completed | TaskStatus::Failed),
            _ => false,
        };
        if !outcome_fits {
            return Err(StoreError::Invalid(format!(
                "a {} task carries {} outcome",
                self.status.as_str(),
                match &self.outcome {
                    None => "no",
                    Some(Outcome::Success(_)) => "a result",
                    Some(Outcome::Error(_)) => "an error",
                }
            )));
        }
        if let Some(k) = self
            .pending
            .keys()
            .chain(self.answers.keys())
            .find(|k| !self.asked.contains(*k))
        {
            return Err(StoreError::Invalid(format!(
                "question key {k:?} is pending or answered but not recorded as asked"
            )));
        }
        Ok(())
    }

    /// Checks that `self` may replace `old` (same version): identity unchanged, no asked key
    /// forgotten or asked again, no cancel request withdrawn. The caller has checked that `old`
    /// is not terminal.
    pub(crate) fn check_replaces(&self, old: &TaskRecord) -> Result<(), StoreError> {
        self.check()?;
        let same = self.id == old.id
            && self.principal == old.principal
            && self.tool == old.tool
            && self.created_at_ms == old.created_at_ms
            && self.ttl_ms == old.ttl_ms;
        if !same {
            return Err(StoreError::Invalid(
                "a task's id, principal, tool, creation time and ttl never change".into(),
            ));
        }
        if let Some(k) = old.asked.iter().find(|k| !self.asked.contains(*k)) {
            return Err(StoreError::Invalid(format!(
                "question key {k:?} was asked in this task and cannot be forgotten"
            )));
        }
        if let Some(k) = self
            .pending
            .keys()
            .find(|k| old.asked.contains(*k) && !old.pending.contains_key(*k))
        {
            return Err(StoreError::Invalid(format!(
                "question key {k:?} was already asked in this task: keys are never reused"
            )));
        }
        if old.cancel_requested && !self.cancel_requested {
            return Err(StoreError::Invalid(
                "a cancel request cannot be withdrawn".into(),
            ));
        }
        Ok(())
    }

    /// The record settled because its lease lapsed: `cancelled` when the client had asked to
    /// cancel it, otherwise `failed` with [`LAPSED_MESSAGE`].
    pub(crate) fn settled_after_lapse(&self, now_ms: u64) -> TaskRecord {
        let mut r = self.clone();
        r.pending.clear();
        r.lease = None;
        r.last_updated_at_ms = now_ms.max(r.last_updated_at_ms);
        if r.cancel_requested {
            r.status = TaskStatus::Cancelled;
            r.status_message = None;
            r.outcome = None;
        } else {
            r.status = TaskStatus::Failed;
            r.status_message = Some(LAPSED_MESSAGE.to_owned());
            r.outcome = Some(Outcome::Error(Error::internal(LAPSED_MESSAGE)));
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_128_random_bits_and_only_their_shape_parses() {
        let (a, b) = (TaskId::random(), TaskId::random());
        assert_ne!(a, b);
        assert_eq!(a.as_str().len(), 32);
        assert_eq!(TaskId::parse(a.as_str()), Some(a.clone()));
        let upper = a.as_str().to_uppercase();
        let long = format!("{a}0");
        for bad in [
            "",
            "x",
            &upper,
            &long,
            "0123456789abcdef0123456789abcdeg",
            "../../etc",
        ] {
            assert_eq!(TaskId::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn states_are_spelled_as_the_extension_spells_them() {
        use TaskStatus::*;
        for s in [Working, InputRequired, Completed, Failed, Cancelled] {
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
            assert_eq!(s.is_terminal(), !matches!(s, Working | InputRequired));
        }
        assert_eq!(InputRequired.as_str(), "input_required");
    }
}
