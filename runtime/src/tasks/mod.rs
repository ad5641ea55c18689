//! Task storage for long-running tools (the tasks extension, `io.modelcontextprotocol/tasks`).
//!
//! A task outlives the request that started it: the client polls it (`tasks/get`), answers its
//! questions (`tasks/update`) and may cancel it (`tasks/cancel`), on whichever server instance
//! its requests reach. What those instances share is a [`TaskStore`]: one [`TaskRecord`] per
//! task, holding its state, its pending questions, the answers not yet taken and, once
//! terminal, its outcome. What cannot move is the tool's running future: it stays on the
//! instance that started it, which holds the record's [`Lease`] and renews it; when that
//! instance stops, the lease lapses and the next reader settles the task `failed`
//! ([`LAPSED_MESSAGE`]).
//!
//! [`MemoryTaskStore`] is the default (one process); with the `redis` feature,
//! `RedisTaskStore` is shared by a fleet, and `RedisReplayGuard` shares the replay guard of
//! sealed rounds ([`ReplayGuard`](crate::state::ReplayGuard)) too.

mod erased;
mod error;
mod memory;
mod record;
#[cfg(feature = "redis")]
mod redis;
mod store;
pub(crate) mod wire;

#[cfg(feature = "redis")]
pub use self::redis::{RedisReplayGuard, RedisTaskStore};
pub use erased::ErasedTaskStore;
pub use error::StoreError;
pub use memory::MemoryTaskStore;
pub use record::{LAPSED_MESSAGE, Lease, Outcome, TaskId, TaskRecord, TaskStatus};
pub use store::{AddOutcome, Renewal, Settle, TaskStore};

/// A suggested bound on the tasks one principal may hold at once (live or terminal, until
/// they expire): the `max_live_per_principal` of [`TaskStore::create`].
pub const DEFAULT_TASKS_PER_PRINCIPAL: usize = 100;
