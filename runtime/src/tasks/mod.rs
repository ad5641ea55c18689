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
//! [`MemoryTaskStore`] is the default (one process); a fleet shares one store, with the replay
//! guard and the effect ledger, through [`Server::shared_state`](crate::Server::shared_state)
//! (`rondo_mcp::shared::Redis`, feature `redis`).

mod erased;
mod error;
pub(crate) mod follow;
mod memory;
mod record;
mod store;
pub(crate) mod wire;

pub use erased::ErasedTaskStore;
pub use error::StoreError;
pub use memory::MemoryTaskStore;
pub use record::{LAPSED_MESSAGE, Lease, Outcome, TaskId, TaskRecord, TaskStatus};
pub use store::{AddOutcome, Renewal, Settle, TaskStore};

/// A suggested bound on the tasks one principal may hold at once (live or terminal, until
/// they expire): the `max_live_per_principal` of [`TaskStore::create`].
pub const DEFAULT_TASKS_PER_PRINCIPAL: usize = 100;
