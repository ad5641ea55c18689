//! The replay guard a fleet shares on Redis.

use super::{Keyspace, manager, unavailable};
use crate::state::{GuardError, ReplayGuard};
use redis::aio::ConnectionManager;
use std::time::SystemTime;

/// The [`ReplayGuard`] a fleet shares on Redis: the first use of a sealed round is
/// `SET {prefix}{round} 1 NX PXAT {expires_at + skew}`, which succeeds once; the key outlives
/// the state by the clock skew allowed between instances (default 30 s), so no instance can
/// replay a state that another still accepts.
#[derive(Clone)]
pub struct RedisReplayGuard {
    conn: ConnectionManager,
    space: Keyspace,
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
            space: Keyspace::new(RedisReplayGuard::DEFAULT_PREFIX),
        }
    }
}

keyed_store!(RedisReplayGuard, "the state's expiry");

impl ReplayGuard for RedisReplayGuard {
    async fn first_use(
        &self,
        round: &str,
        expires_at: SystemTime,
        _now: SystemTime,
    ) -> Result<bool, GuardError> {
        let set: Option<String> = redis::cmd("SET")
            .arg(self.space.key(round))
            .arg(1)
            .arg("NX")
            .arg("PXAT")
            .arg(self.space.expiry(expires_at))
            .query_async(&mut self.conn.clone())
            .await
            .map_err(|e| GuardError::new(unavailable(e)))?;
        Ok(set.is_some())
    }

    async fn release(&self, round: &str) -> Result<(), GuardError> {
        let _: i64 = redis::cmd("DEL")
            .arg(self.space.key(round))
            .query_async(&mut self.conn.clone())
            .await
            .map_err(|e| GuardError::new(unavailable(e)))?;
        Ok(())
    }
}
