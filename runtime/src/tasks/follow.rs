//! Following tasks for a listen stream (`notifications/tasks`, the tasks extension): which of
//! the task ids a listener names it may follow, and which of them changed since it was last
//! told.
//!
//! A listener follows a task only when its principal may see it: the check of `tasks/get`
//! ([`TaskStore::get`](super::TaskStore::get): unknown, expired and another principal's ids alike are left out). It
//! reads the task store, not the runner, so a listener hears the same whichever instance of a
//! fleet runs the task: [`MemoryTaskStore`](super::MemoryTaskStore) wakes it on every write of
//! a followed task; a store that cannot (Redis) is read again every `task_poll_interval`.

use super::{ErasedTaskStore, StoreError, TaskId, TaskRecord, TaskStatus};
use std::collections::BTreeSet;
use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use std::time::Duration;

/// The tasks one listener follows, each with what it was last told.
#[derive(Debug, Default)]
pub(crate) struct Followed {
    tasks: Vec<Follow>,
}

#[derive(Debug)]
struct Follow {
    id: TaskId,
    told: Told,
}

/// What a listener was told of a task: a notification goes out when any of it changes (not
/// for a lease renewal, nor for `lastUpdatedAt` alone).
#[derive(Debug, PartialEq)]
struct Told {
    status: TaskStatus,
    message: Option<String>,
    /// The keys of its `inputRequests`.
    asked: Vec<String>,
}

impl Told {
    fn of(record: &TaskRecord) -> Told {
        Told {
            status: record.status,
            message: record.status_message.clone(),
            asked: record.pending.keys().cloned().collect(),
        }
    }
}

impl Followed {
    /// Of the ids `asked`, those that name a task `principal` may see, each with its record as
    /// it stands (what the listener is told first, so nothing between its last look and the
    /// listen is missed). A task already terminal is told once and not followed.
    pub(crate) async fn open(
        store: &dyn ErasedTaskStore,
        asked: &BTreeSet<String>,
        principal: Option<&str>,
        now_ms: u64,
    ) -> Result<(Followed, Vec<TaskRecord>), StoreError> {
        let mut followed = Followed::default();
        let mut records = Vec::new();
        for id in asked.iter().filter_map(|id| TaskId::parse(id)) {
            let Some(record) = store.dyn_get(&id, principal, now_ms).await? else {
                continue;
            };
            if !record.status.is_terminal() {
                let told = Told::of(&record);
                followed.tasks.push(Follow { id, told });
            }
            records.push(record);
        }
        Ok((followed, records))
    }

    /// Whether it follows no task (any longer).
    pub(crate) fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// Waits until a followed task may have changed, at most `max_wait`; never ends when none
    /// is followed. A write between the last [`look`](Followed::look) and this call is seen at
    /// the latest `max_wait` later.
    pub(crate) async fn changed(&self, store: &dyn ErasedTaskStore, max_wait: Duration) {
        if self.tasks.is_empty() {
            return std::future::pending().await;
        }
        let mut waits: Vec<Pin<Box<dyn Future<Output = ()> + Send + '_>>> = self
            .tasks
            .iter()
            .map(|f| store.dyn_wait_change(&f.id, max_wait))
            .collect();
        std::future::poll_fn(|cx| {
            if waits.iter_mut().any(|w| w.as_mut().poll(cx).is_ready()) {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
        .await
    }

    /// Reads every followed task again and returns those to tell the listener about: whose
    /// status, status message or pending questions changed since it was last told. A terminal
    /// task is told once and no longer followed; one gone (expired) is no longer followed and
    /// told nothing; one the store could not read stays followed, read again next time.
    pub(crate) async fn look(
        &mut self,
        store: &dyn ErasedTaskStore,
        principal: Option<&str>,
        now_ms: u64,
    ) -> Vec<TaskRecord> {
        let mut tell = Vec::new();
        let mut i = 0;
        while i < self.tasks.len() {
            let follow = &mut self.tasks[i];
            let record = match store.dyn_get(&follow.id, principal, now_ms).await {
                Ok(Some(record)) => record,
                Ok(None) => {
                    self.tasks.swap_remove(i);
                    continue;
                }
                Err(e) => {
                    tracing::warn!(task = %follow.id, error = %e, "could not read a followed task");
                    i += 1;
                    continue;
                }
            };
            let told = Told::of(&record);
            let changed = told != follow.told;
            follow.told = told;
            if record.status.is_terminal() {
                self.tasks.swap_remove(i);
            } else {
                i += 1;
            }
            if changed {
                tell.push(record);
            }
        }
        tell
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::{Lease, MemoryTaskStore, Settle, TaskStore};
    use serde_json::json;
    use std::sync::Arc;

    fn record(principal: &str) -> TaskRecord {
        let lease = Lease {
            owner: "me".into(),
            until_ms: 100_000,
        };
        TaskRecord::new(Some(principal.into()), "t", 1_000, 60_000, 20, lease)
    }

    #[tokio::test]
    async fn only_a_principals_own_tasks_are_followed_and_each_change_is_told_once() {
        let store: Arc<dyn ErasedTaskStore> = Arc::new(MemoryTaskStore::default());
        let (mine, theirs) = (record("ada"), record("bob"));
        store.create(&mine, 10).await.unwrap();
        store.create(&theirs, 10).await.unwrap();
        let asked: BTreeSet<String> = [mine.id.as_str(), theirs.id.as_str(), "not-an-id"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        let (mut f, first) = Followed::open(&*store, &asked, Some("ada"), 1_000)
            .await
            .unwrap();
        assert_eq!(first.len(), 1);
        assert_eq!(first[0].id, mine.id);
        assert!(f.look(&*store, Some("ada"), 1_001).await.is_empty());
        let questions = json!({"q": {"method": "roots/list"}});
        let questions = questions.as_object().unwrap().clone();
        store.park(&mine.id, "me", questions, 1_002).await.unwrap();
        let told = f.look(&*store, Some("ada"), 1_003).await;
        assert_eq!(told.len(), 1);
        assert_eq!(told[0].status, TaskStatus::InputRequired);
        assert!(f.look(&*store, Some("ada"), 1_004).await.is_empty());
        let end = Settle::Completed(json!({"content": []}));
        store.settle(&mine.id, "me", end, 1_005).await.unwrap();
        let told = f.look(&*store, Some("ada"), 1_006).await;
        assert_eq!(told[0].status, TaskStatus::Completed);
        assert!(f.is_empty(), "a terminal task is no longer followed");
    }
}
