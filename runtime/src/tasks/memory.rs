//! [`MemoryTaskStore`]: the default task store, in this process's memory.

use super::{StoreError, TaskId, TaskRecord, TaskStore};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;

/// The default [`TaskStore`]: the tasks of one process, at most
/// [`MemoryTaskStore::DEFAULT_RECORDS`] (or the number given to [`MemoryTaskStore::new`]).
///
/// Records are dropped once expired: lazily (an expired record is never read), and for good by
/// the sweep that every [`create`](TaskStore::create) and [`load`](TaskStore::load) runs (or an
/// explicit [`MemoryTaskStore::sweep`]). At the bound, `create` refuses with
/// [`StoreError::Capacity`] until records expire; it never drops a live one.
/// [`wait_change`](TaskStore::wait_change) wakes as soon as the task is written.
///
/// It serves one process: instances of a fleet need a shared store (`RedisTaskStore`).
pub struct MemoryTaskStore {
    max_records: usize,
    inner: Mutex<Inner>,
}

/// One stored task and the waiters on it.
struct Entry {
    record: TaskRecord,
    /// Woken on every write of the record, and when it is dropped.
    changed: Arc<Notify>,
}

/// The records and their indexes.
#[derive(Default)]
struct Inner {
    entries: HashMap<TaskId, Entry>,
    /// Every record's id by its expiry, soonest first.
    queue: BinaryHeap<Reverse<(u64, TaskId)>>,
    /// How many records each principal holds.
    held: HashMap<Option<String>, usize>,
}

impl Inner {
    /// Drops the records expired at `now_ms`; returns how many.
    fn forget_expired(&mut self, now_ms: u64) -> usize {
        let mut dropped = 0;
        while let Some(Reverse((at, _))) = self.queue.peek() {
            if *at >= now_ms {
                break;
            }
            let Some(Reverse((_, id))) = self.queue.pop() else {
                break;
            };
            if let Some(e) = self.entries.remove(&id) {
                if let Some(n) = self.held.get_mut(&e.record.principal) {
                    *n -= 1;
                    if *n == 0 {
                        self.held.remove(&e.record.principal);
                    }
                }
                e.changed.notify_waiters();
                dropped += 1;
            }
        }
        dropped
    }
}

impl MemoryTaskStore {
    /// How many records the default store holds at most.
    pub const DEFAULT_RECORDS: usize = 10_000;

    /// A store holding at most `max_records` records at once.
    pub fn new(max_records: usize) -> Self {
        MemoryTaskStore {
            max_records,
            inner: Mutex::new(Inner::default()),
        }
    }

    /// How many records it holds now (expired ones not yet swept included).
    pub fn len(&self) -> usize {
        crate::sync::lock(&self.inner).entries.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops every record expired at `now_ms`; returns how many were dropped.
    pub fn sweep(&self, now_ms: u64) -> usize {
        crate::sync::lock(&self.inner).forget_expired(now_ms)
    }

    fn insert(&self, record: &TaskRecord, max_live: usize) -> Result<(), StoreError> {
        record.check()?;
        let mut inner = crate::sync::lock(&self.inner);
        inner.forget_expired(record.created_at_ms);
        if inner.entries.contains_key(&record.id) {
            return Err(StoreError::Exists);
        }
        let held = inner.held.get(&record.principal).copied().unwrap_or(0);
        if held >= max_live {
            return Err(StoreError::Full { max: max_live });
        }
        if inner.entries.len() >= self.max_records {
            return Err(StoreError::Capacity {
                max: self.max_records,
            });
        }
        *inner.held.entry(record.principal.clone()).or_default() += 1;
        inner
            .queue
            .push(Reverse((record.expires_at_ms(), record.id.clone())));
        let entry = Entry {
            record: record.clone(),
            changed: Arc::new(Notify::new()),
        };
        inner.entries.insert(record.id.clone(), entry);
        Ok(())
    }

    fn read(&self, id: &TaskId, now_ms: u64) -> Option<TaskRecord> {
        let mut inner = crate::sync::lock(&self.inner);
        inner.forget_expired(now_ms);
        inner
            .entries
            .get(id)
            .map(|e| &e.record)
            .filter(|r| !r.is_expired(now_ms))
            .cloned()
    }

    fn write(&self, record: &TaskRecord, expected: u64) -> Result<bool, StoreError> {
        let mut inner = crate::sync::lock(&self.inner);
        let Some(entry) = inner.entries.get_mut(&record.id) else {
            return Ok(false);
        };
        if entry.record.version != expected || entry.record.status.is_terminal() {
            return Ok(false);
        }
        record.check_replaces(&entry.record)?;
        entry.record = TaskRecord {
            version: expected + 1,
            ..record.clone()
        };
        entry.changed.notify_waiters();
        Ok(true)
    }
}

impl Default for MemoryTaskStore {
    fn default() -> Self {
        MemoryTaskStore::new(MemoryTaskStore::DEFAULT_RECORDS)
    }
}

impl fmt::Debug for MemoryTaskStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryTaskStore")
            .field("max_records", &self.max_records)
            .field("len", &self.len())
            .finish()
    }
}

impl TaskStore for MemoryTaskStore {
    async fn create(&self, record: &TaskRecord, max_live: usize) -> Result<(), StoreError> {
        self.insert(record, max_live)
    }

    async fn load(&self, id: &TaskId, now_ms: u64) -> Result<Option<TaskRecord>, StoreError> {
        Ok(self.read(id, now_ms))
    }

    async fn put_if(&self, record: &TaskRecord, expected: u64) -> Result<bool, StoreError> {
        self.write(record, expected)
    }

    async fn wait_change(&self, id: &TaskId, max_wait: Duration) {
        // Registered under the lock, so no write after this point is missed.
        let notified = {
            let inner = crate::sync::lock(&self.inner);
            match inner.entries.get(id) {
                Some(e) => e.changed.clone().notified_owned(),
                None => return,
            }
        };
        let _ = tokio::time::timeout(max_wait, notified).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Clock as _;
    use crate::tasks::{Lease, TaskStatus};
    use serde_json::json;

    fn task(principal: &str, now: u64, ttl: u64) -> TaskRecord {
        let lease = Lease {
            owner: "i1".into(),
            until_ms: now + 60_000,
        };
        TaskRecord::new(Some(principal.into()), "t", now, ttl, 500, lease)
    }

    #[tokio::test]
    async fn at_the_bound_creation_is_refused_until_records_expire() {
        let s = MemoryTaskStore::new(2);
        s.create(&task("a", 0, 100), 10).await.unwrap();
        s.create(&task("b", 0, 200), 10).await.unwrap();
        let err = s.create(&task("c", 50, 100), 10).await.unwrap_err();
        assert_eq!(err, StoreError::Capacity { max: 2 });
        assert!(err.to_string().contains("holds 2 tasks"), "{err}");
        assert_eq!(s.len(), 2, "never grows past its bound");
        // At 101 the first record has expired and is swept, so a new one fits.
        s.create(&task("c", 101, 100), 10).await.unwrap();
        assert_eq!(s.len(), 2);
    }

    #[tokio::test]
    async fn sweep_drops_expired_records_and_their_count() {
        let s = MemoryTaskStore::default();
        let r = task("a", 0, 100);
        s.create(&r, 1).await.unwrap();
        assert_eq!(s.sweep(100), 0, "kept through its expiry instant");
        assert_eq!(s.sweep(101), 1);
        assert!(s.is_empty());
        // The principal's count went with it: at the bound of 1 it may create again.
        s.create(&task("a", 101, 100), 1).await.unwrap();
    }

    #[tokio::test]
    async fn wait_change_wakes_on_a_write_long_before_its_time_runs_out() {
        let s = Arc::new(MemoryTaskStore::default());
        let mut r = task("a", crate::state::SystemClock.now_ms(), 60_000);
        r.status = TaskStatus::InputRequired;
        r.asked.insert("q".into());
        r.pending
            .insert("q".into(), json!({"method": "elicitation/create"}));
        s.create(&r, 10).await.unwrap();
        let id = r.id.clone();
        let waiter = {
            let (s, id) = (s.clone(), id.clone());
            tokio::spawn(async move {
                let t = std::time::Instant::now();
                s.wait_change(&id, Duration::from_secs(30)).await;
                t.elapsed()
            })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        let answers = json!({"q": {"action": "accept"}});
        let got = s
            .add_answers(
                &id,
                Some("a"),
                answers.as_object().unwrap().clone(),
                r.created_at_ms,
            )
            .await
            .unwrap();
        assert!(got.is_some());
        let waited = waiter.await.unwrap();
        assert!(waited < Duration::from_secs(5), "woke after {waited:?}");
    }
}
