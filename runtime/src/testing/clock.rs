//! [`ManualClock`]: a clock for `requestState` expiry that tests move by hand.

use crate::state::Clock;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// A clock that only moves when told to, for expiry tests: give it to
/// [`Server::clock`](crate::Server::clock).
#[derive(Debug, Default)]
pub struct ManualClock(AtomicU64);

impl ManualClock {
    /// A clock reading `ms`.
    pub fn new(ms: u64) -> Arc<Self> {
        Arc::new(ManualClock(AtomicU64::new(ms)))
    }
    /// Moves the clock forward.
    pub fn advance(&self, d: std::time::Duration) {
        self.0.fetch_add(d.as_millis() as u64, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}
