//! The [`TaskStore`] trait: three primitives a backend implements, and the task operations
//! built once on top of them (compare-and-set loops), so every backend keeps the same rules.

use super::{Outcome, StoreError, TaskId, TaskRecord, TaskStatus};
use crate::protocol::{Error, JsonObject};
use serde_json::Value;
use std::future::Future;
use std::time::Duration;

/// Where the tasks of a server live: records, pending questions, answers and results.
///
/// A backend implements three primitives: [`create`](TaskStore::create) (refusing a principal
/// over its bound, atomically), [`load`](TaskStore::load) and the compare-and-set write
/// [`put_if`](TaskStore::put_if). Every other operation is provided on top of them as a
/// read-modify-CAS loop, so two instances racing on one task cannot break an invariant: each
/// write is made against the version it read, and a lost race reads again. A backend with
/// native atomic operations may override any of them, keeping their documented behaviour.
///
/// Rules every implementation keeps (the contract suite in `tests/tests/tasks/store.rs` checks
/// them against each shipped store):
/// - a record is never forgotten before `created_at_ms + ttl_ms` and never read after it;
/// - a terminal record (`completed`, `failed`, `cancelled`) never changes again;
/// - a question key is asked at most once per task; an answer is taken at most once;
/// - a lapsed lease never comes back: the task settles `failed` (or `cancelled`) exactly once.
///
/// Times are ms since the epoch, on the calling instance's clock. [`MemoryTaskStore`] is the
/// default (one process); `RedisTaskStore` (feature `redis`) is shared by a fleet.
///
/// [`MemoryTaskStore`]: super::MemoryTaskStore
pub trait TaskStore: Send + Sync + 'static {
    /// Stores a new record, unless its principal already holds `max_live_per_principal`
    /// records that have not expired at `record.created_at_ms` (terminal ones count: they are
    /// held until they expire): then [`StoreError::Full`], and nothing is stored. The count
    /// and the insertion are one atomic step.
    fn create(
        &self,
        record: &TaskRecord,
        max_live_per_principal: usize,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The record of `id` as stored, `None` when unknown or expired at `now_ms`. A raw read:
    /// no principal check and no settling. What a client asks goes through
    /// [`get`](TaskStore::get).
    fn load(
        &self,
        id: &TaskId,
        now_ms: u64,
    ) -> impl Future<Output = Result<Option<TaskRecord>, StoreError>> + Send;

    /// Replaces the stored record of `record.id` with `record`, only if the stored version is
    /// `expected_version` and the stored record is not terminal; the stored version becomes
    /// `expected_version + 1` (whatever `record.version` says). `Ok(false)`: not written (the
    /// version moved on, the record is terminal, or gone): read it again.
    /// [`StoreError::Invalid`] when `record` breaks a rule (an identity field changed, a
    /// question key reused or forgotten, a cancel request withdrawn, an outcome that does not
    /// fit the status).
    fn put_if(
        &self,
        record: &TaskRecord,
        expected_version: u64,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Waits until `id` may have changed, at most `max_wait`; the caller reads it again
    /// either way. The default sleeps `max_wait` (polling);
    /// [`MemoryTaskStore`](super::MemoryTaskStore) wakes as soon as the task is written.
    fn wait_change(&self, id: &TaskId, max_wait: Duration) -> impl Future<Output = ()> + Send {
        let _ = id;
        tokio::time::sleep(max_wait)
    }

    /// The task as its owner sees it: `None` when unknown, expired, or created by another
    /// principal (the same answer, so an id tells a stranger nothing). A task whose lease
    /// lapsed is settled first ([`settle_lapsed`](TaskStore::settle_lapsed)), so no client
    /// ever sees `working` from an instance that is gone.
    fn get(
        &self,
        id: &TaskId,
        principal: Option<&str>,
        now_ms: u64,
    ) -> impl Future<Output = Result<Option<TaskRecord>, StoreError>> + Send {
        async move {
            let got = update(self, id, now_ms, |r| {
                if !r.is_owned_by(principal) {
                    Step::Keep(false)
                } else if r.lease_lapsed(now_ms) {
                    *r = r.settled_after_lapse(now_ms);
                    Step::Write(true)
                } else {
                    Step::Keep(true)
                }
            })
            .await?;
            Ok(got.and_then(|(r, owned)| owned.then_some(r)))
        }
    }

    /// `tasks/update`: of `answers`, keeps those whose key is pending (unknown and
    /// already-answered keys are ignored, as the extension says), moving each from `pending` to
    /// `answers` in one write; when nothing is left pending an `input_required` task becomes
    /// `working`. `None` as [`get`](TaskStore::get) gives it. A terminal task accepts nothing.
    fn add_answers(
        &self,
        id: &TaskId,
        principal: Option<&str>,
        answers: JsonObject,
        now_ms: u64,
    ) -> impl Future<Output = Result<Option<AddOutcome>, StoreError>> + Send {
        async move {
            let got = update(self, id, now_ms, |r| {
                if !r.is_owned_by(principal) {
                    return Step::Keep(None);
                }
                let mut accepted = Vec::new();
                if !r.status.is_terminal() {
                    for (k, v) in &answers {
                        if !r.answers.contains_key(k) && r.pending.remove(k).is_some() {
                            r.answers.insert(k.clone(), v.clone());
                            accepted.push(k.clone());
                        }
                    }
                }
                let still_pending = !r.pending.is_empty();
                let out = AddOutcome {
                    accepted,
                    still_pending,
                };
                if out.accepted.is_empty() {
                    return Step::Keep(Some(out));
                }
                r.last_updated_at_ms = now_ms.max(r.last_updated_at_ms);
                if !still_pending && r.status == super::TaskStatus::InputRequired {
                    r.status = super::TaskStatus::Working;
                    r.status_message = None;
                }
                Step::Write(Some(out))
            })
            .await?;
            Ok(got.and_then(|(_, out)| out))
        }
    }

    /// The running instance `owner` takes the answers received so far (each once: they are
    /// removed in the same write). `None` when the task is gone, terminal, or its lease is not
    /// `owner`'s or lapsed: the tool's future should stop.
    fn take_answers(
        &self,
        id: &TaskId,
        owner: &str,
        now_ms: u64,
    ) -> impl Future<Output = Result<Option<JsonObject>, StoreError>> + Send {
        async move {
            let got = update(self, id, now_ms, |r| {
                if !holds_lease(r, owner, now_ms) {
                    Step::Keep(None)
                } else if r.answers.is_empty() {
                    Step::Keep(Some(JsonObject::new()))
                } else {
                    Step::Write(Some(std::mem::take(&mut r.answers)))
                }
            })
            .await?;
            Ok(got.and_then(|(_, answers)| answers))
        }
    }

    /// `tasks/cancel`: records the request (idempotent; a terminal task stays exactly as it
    /// is). The running instance learns it from [`renew_lease`](TaskStore::renew_lease), drops
    /// the tool's future and settles the task `cancelled`; when the lease has already lapsed
    /// (nobody runs it) the task is settled `cancelled` here. `None` as
    /// [`get`](TaskStore::get) gives it; otherwise the record after the request.
    fn request_cancel(
        &self,
        id: &TaskId,
        principal: Option<&str>,
        now_ms: u64,
    ) -> impl Future<Output = Result<Option<TaskRecord>, StoreError>> + Send {
        async move {
            let got = update(self, id, now_ms, |r| {
                if !r.is_owned_by(principal) {
                    return Step::Keep(false);
                }
                if r.status.is_terminal() || (r.cancel_requested && !r.lease_lapsed(now_ms)) {
                    return Step::Keep(true);
                }
                r.cancel_requested = true;
                r.last_updated_at_ms = now_ms.max(r.last_updated_at_ms);
                if r.lease_lapsed(now_ms) {
                    *r = r.settled_after_lapse(now_ms);
                }
                Step::Write(true)
            })
            .await?;
            Ok(got.and_then(|(r, owned)| owned.then_some(r)))
        }
    }

    /// The running instance `owner` extends its lease to `until_ms` (never shortening it).
    /// [`Renewal::Lost`] when the task is gone, terminal, not `owner`'s, or its lease already
    /// lapsed at `now_ms` (a lapsed lease never comes back): the tool's future should stop.
    fn renew_lease(
        &self,
        id: &TaskId,
        owner: &str,
        until_ms: u64,
        now_ms: u64,
    ) -> impl Future<Output = Result<Renewal, StoreError>> + Send {
        async move {
            let got = update(self, id, now_ms, |r| {
                if !holds_lease(r, owner, now_ms) {
                    return Step::Keep(Renewal::Lost);
                }
                let held = Renewal::Held {
                    cancel_requested: r.cancel_requested,
                };
                match &mut r.lease {
                    Some(l) if l.until_ms < until_ms => {
                        l.until_ms = until_ms;
                        Step::Write(held)
                    }
                    _ => Step::Keep(held),
                }
            })
            .await?;
            Ok(got.map_or(Renewal::Lost, |(_, renewal)| renewal))
        }
    }

    /// Settles a task whose lease lapsed at `now_ms` (its instance stopped): `failed` with
    /// [`LAPSED_MESSAGE`](super::LAPSED_MESSAGE), or `cancelled` when cancelling was
    /// requested. `true` only for the one call that settled it; `false` when there was nothing
    /// to settle (unknown, terminal, lease still held) or another caller settled it first.
    /// Any instance may call it; [`get`](TaskStore::get) does.
    fn settle_lapsed(
        &self,
        id: &TaskId,
        now_ms: u64,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        async move {
            let got = update(self, id, now_ms, |r| {
                if r.lease_lapsed(now_ms) {
                    *r = r.settled_after_lapse(now_ms);
                    Step::Write(true)
                } else {
                    Step::Keep(false)
                }
            })
            .await?;
            Ok(got.is_some_and(|(_, settled)| settled))
        }
    }
    /// The running instance `owner` parks new questions: each goes into `pending` and
    /// `asked` (a key already asked in this task is refused with [`StoreError::Invalid`]:
    /// keys are never reused), and the task becomes `input_required`, in one write. `false`
    /// when the task is gone, terminal, or its lease is not `owner`'s.
    fn park(
        &self,
        id: &TaskId,
        owner: &str,
        questions: JsonObject,
        now_ms: u64,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        async move {
            let got = update(self, id, now_ms, |r| {
                if !holds_lease(r, owner, now_ms) {
                    return Step::Keep(false);
                }
                for (k, v) in &questions {
                    r.asked.insert(k.clone());
                    r.pending.insert(k.clone(), v.clone());
                }
                r.status = super::TaskStatus::InputRequired;
                r.last_updated_at_ms = now_ms.max(r.last_updated_at_ms);
                Step::Write(true)
            })
            .await?;
            Ok(got.is_some_and(|(_, parked)| parked))
        }
    }

    /// The running instance `owner` withdraws questions the tool no longer waits for: each
    /// key leaves `pending` (and an answer received for it and not yet taken is dropped), but
    /// stays in `asked`, so a late answer to it is ignored and the key is never used again;
    /// when nothing is left pending an `input_required` task becomes `working`. One write, none
    /// when no key was pending or answered. `false` when the task is gone, terminal, or its
    /// lease is not `owner`'s.
    fn withdraw(
        &self,
        id: &TaskId,
        owner: &str,
        keys: Vec<String>,
        now_ms: u64,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        async move {
            let got = update(self, id, now_ms, |r| {
                if !holds_lease(r, owner, now_ms) {
                    return Step::Keep(false);
                }
                let mut changed = false;
                for k in &keys {
                    changed |= r.pending.remove(k).is_some();
                    changed |= r.answers.remove(k).is_some();
                }
                if !changed {
                    return Step::Keep(true);
                }
                if r.pending.is_empty() && r.status == TaskStatus::InputRequired {
                    r.status = TaskStatus::Working;
                }
                r.last_updated_at_ms = now_ms.max(r.last_updated_at_ms);
                Step::Write(true)
            })
            .await?;
            Ok(got.is_some_and(|(_, kept)| kept))
        }
    }

    /// The running instance `owner` sets the task's `statusMessage` (what it is doing now,
    /// for people). `false` when the task is gone, terminal, or its lease is not `owner`'s.
    fn set_status_message(
        &self,
        id: &TaskId,
        owner: &str,
        message: String,
        now_ms: u64,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        async move {
            let got = update(self, id, now_ms, |r| {
                if !holds_lease(r, owner, now_ms) {
                    return Step::Keep(false);
                }
                if r.status_message.as_deref() == Some(message.as_str()) {
                    return Step::Keep(true);
                }
                r.status_message = Some(message.clone());
                r.last_updated_at_ms = now_ms.max(r.last_updated_at_ms);
                Step::Write(true)
            })
            .await?;
            Ok(got.is_some_and(|(_, set)| set))
        }
    }

    /// The running instance `owner` settles the task as `end` says: terminal from then on,
    /// nothing pending, no lease. `false` when the task is gone, already terminal, or its lease
    /// is not `owner`'s (a reader settled it after a lapse).
    fn settle(
        &self,
        id: &TaskId,
        owner: &str,
        end: Settle,
        now_ms: u64,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        async move {
            let got = update(self, id, now_ms, |r| {
                if !holds_lease(r, owner, now_ms) {
                    return Step::Keep(false);
                }
                r.pending.clear();
                r.lease = None;
                r.last_updated_at_ms = now_ms.max(r.last_updated_at_ms);
                let (status, message, outcome) = match &end {
                    Settle::Completed(v) => (
                        TaskStatus::Completed,
                        None,
                        Some(Outcome::Success(v.clone())),
                    ),
                    Settle::Failed(e) => (
                        TaskStatus::Failed,
                        Some(e.message.clone()),
                        Some(Outcome::Error(e.clone())),
                    ),
                    Settle::Cancelled => (TaskStatus::Cancelled, None, None),
                };
                r.status = status;
                r.status_message = message;
                r.outcome = outcome;
                Step::Write(true)
            })
            .await?;
            Ok(got.is_some_and(|(_, settled)| settled))
        }
    }
}

/// How the running instance settles a task ([`TaskStore::settle`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Settle {
    /// `completed`, with the tool's result as the wire carries it (also an `isError` one).
    Completed(Value),
    /// `failed`, with the JSON-RPC error the call ended with (its message becomes the
    /// `statusMessage`).
    Failed(Error),
    /// `cancelled` (the client asked for it).
    Cancelled,
}

/// What [`TaskStore::add_answers`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddOutcome {
    /// The keys whose answers were taken (pending and not yet answered).
    pub accepted: Vec<String>,
    /// Whether questions are still waiting for answers.
    pub still_pending: bool,
}

/// What [`TaskStore::renew_lease`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Renewal {
    /// The lease is held (now until at least the time asked for).
    Held {
        /// Whether the client asked to cancel the task: drop the future and settle it.
        cancel_requested: bool,
    },
    /// The lease is gone for good: stop running the task.
    Lost,
}

/// How many times an operation reads and tries its write again after losing a race.
const MAX_ATTEMPTS: usize = 16;

/// What one attempt of an [`update`] decided.
enum Step<R> {
    /// Nothing to write: the answer is `R`, the record as read.
    Keep(R),
    /// Write the changed record; when it lands the answer is `R`.
    Write(R),
}

/// Reads `id`, lets `f` decide on a copy, and writes the copy against the version read when
/// `f` says so, reading again after a lost race. `None` when the task is unknown or expired;
/// otherwise the record as it now stands, with `f`'s answer.
async fn update<S, R, F>(
    store: &S,
    id: &TaskId,
    now_ms: u64,
    mut f: F,
) -> Result<Option<(TaskRecord, R)>, StoreError>
where
    S: TaskStore + ?Sized,
    F: FnMut(&mut TaskRecord) -> Step<R> + Send,
    R: Send,
{
    for _ in 0..MAX_ATTEMPTS {
        let Some(old) = store.load(id, now_ms).await? else {
            return Ok(None);
        };
        let mut new = old.clone();
        match f(&mut new) {
            Step::Keep(answer) => return Ok(Some((old, answer))),
            Step::Write(answer) => {
                if store.put_if(&new, old.version).await? {
                    new.version = old.version + 1;
                    return Ok(Some((new, answer)));
                }
            }
        }
    }
    Err(StoreError::Contended)
}

/// Whether `owner` holds `r`'s lease at `now_ms` (and the task still runs).
fn holds_lease(r: &TaskRecord, owner: &str, now_ms: u64) -> bool {
    !r.status.is_terminal()
        && r.lease
            .as_ref()
            .is_some_and(|l| l.owner == owner && now_ms <= l.until_ms)
}
