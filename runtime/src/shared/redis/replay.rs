//! The replay guard a fleet shares on Redis.

use super::{DEFAULT_SKEW, manager, millis, unavailable};
use crate::state::{GuardError, ReplayGuard};
use redis::aio::ConnectionManager;
use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The [`ReplayGuard`] a fleet shares on Redis: the first use of a sealed round is
/// `SET {prefix}{round} 1 NX PXAT {expires_at + skew}`, which succeeds once; the key outlives
/// the state by the clock skew allowed between instances (default 30 s), so no instance can
/// replay a state that another still accepts.
#[derive(Clone)]
pub struct RedisReplayGuard {
    conn: ConnectionManager,
    prefix: String,
    skew_ms: u64,
}

impl RedisReplayGuard {
    /// The default key prefix.
    pub const DEFAULT_PREFIX: &'static str = "rondo:replay:";

    /// Connects to the Redis at `url`.
    pub async fn connect(url: &str) -> Result<Self, GuardError> {
        let conn = manager(url)
            .await
            .map_err(|e| GuardError::new(e.to_string()))?;
        Ok(RedisReplayGuard::new(conn))
    }

    /// A guard on an existing connection.
    pub fn new(conn: ConnectionManager) -> Self {
        RedisReplayGuard {
            conn,
            prefix: RedisReplayGuard::DEFAULT_PREFIX.to_owned(),
            skew_ms: millis(DEFAULT_SKEW),
        }
    }

    /// Keys start with `prefix` (default [`RedisReplayGuard::DEFAULT_PREFIX`]).
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// Keys outlive the state's expiry by `skew` (default 30 s).
    pub fn with_skew(mut self, skew: Duration) -> Self {
        self.skew_ms = millis(skew);
        self
    }
}

impl fmt::Debug for RedisReplayGuard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisReplayGuard")
            .field("prefix", &self.prefix)
            .field("skew_ms", &self.skew_ms)
            .finish_non_exhaustive()
    }
}

impl ReplayGuard for RedisReplayGuard {
    async fn first_use(
        &self,
        round: &str,
        expires_at: SystemTime,
        _now: SystemTime,
    ) -> Result<bool, GuardError> {
        let at = expires_at
            .duration_since(UNIX_EPOCH)
            .map_or(0, millis)
            .saturating_add(self.skew_ms);
        let set: Option<String> = redis::cmd("SET")
            .arg(format!("{}{round}", self.prefix))
            .arg(1)
            .arg("NX")
            .arg("PXAT")
            .arg(at.max(1))
            .query_async(&mut self.conn.clone())
            .await
            .map_err(|e| GuardError::new(unavailable(e)))?;
        Ok(set.is_some())
    }

    async fn release(&self, round: &str) -> Result<(), GuardError> {
        let _: i64 = redis::cmd("DEL")
            .arg(format!("{}{round}", self.prefix))
            .query_async(&mut self.conn.clone())
            .await
            .map_err(|e| GuardError::new(unavailable(e)))?;
        Ok(())
    }
}
