//! What the instances of a fleet share, so that the fleet behaves as one server: the replay
//! guard (a round is taken for one set of answers, on whichever instance), the effect ledger
//! ([`Cx::once`](crate::Cx::once): an effect happens once) and the task store (any instance
//! answers for any task).
//!
//! A fleet behind a load balancer shares a key ring ([`Server::state_keys`](crate::Server::state_keys)),
//! so that any instance opens any retry's `requestState`. That alone lets a client replay a
//! round on another instance, whose memory does not know it was taken: one more
//! [`Server::shared_state`](crate::Server::shared_state) closes it. With the `redis` feature,
//! [`Redis`] is that state on one Redis; [`SharedState::new`] takes stores of your own.
//!
//! A server given a key ring whose guard or ledger is still this process's memory logs a
//! warning when it starts serving (target `rondo::fleet`).

#[cfg(feature = "redis")]
mod redis;

#[cfg(feature = "redis")]
pub use self::redis::{
    ConnectError, Persistence, Redis, RedisLedger, RedisReplayGuard, RedisTaskStore,
};

use crate::state::{ErasedGuard, ErasedLedger, Ledger, ReplayGuard};
use crate::tasks::{ErasedTaskStore, TaskStore};
use std::fmt;
use std::sync::Arc;

/// The replay guard, task store and effect ledger that every instance of a fleet is given (see
/// the [module](self)).
#[derive(Clone)]
pub struct SharedState {
    pub(crate) guard: Arc<dyn ErasedGuard>,
    pub(crate) tasks: Arc<dyn ErasedTaskStore>,
    pub(crate) ledger: Arc<dyn ErasedLedger>,
}

impl SharedState {
    /// Shared state from its three stores.
    pub fn new(guard: impl ReplayGuard, tasks: impl TaskStore, ledger: impl Ledger) -> Self {
        SharedState {
            guard: Arc::new(guard),
            tasks: Arc::new(tasks),
            ledger: Arc::new(ledger),
        }
    }
}

impl fmt::Debug for SharedState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SharedState").finish_non_exhaustive()
    }
}
