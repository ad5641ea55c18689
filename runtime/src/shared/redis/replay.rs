//! The replay guard a fleet shares on Redis.

use super::{Keyspace, manager, unavailable};
use crate::state::{GuardError, ReplayGuard, RoundUse};
use redis::aio::ConnectionManager;
use std::time::SystemTime;

/// The [`ReplayGuard`] a fleet shares on Redis: taking a round is one command,
/// `SET {prefix}{round} {fingerprint} NX GET PXAT {expires_at + skew}`, which records the
/// fingerprint when nothing is there and answers what was (Redis 7.0 or later). The key
/// outlives the state by the clock skew allowed between instances (default 30 s), so no
/// instance can replay a state that another still accepts.
///
/// A command that Redis runs after the server stopped waiting for it (Redis stalled by a slow
/// disk or a fork) records the round's own fingerprint: the same round sent again finds it and
/// is served ([`RoundUse::Again`]), so a round refused with "try again" can be tried again.
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
            .map_err(|e| GuardError::new(unavailable(e)))?;
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
    async fn take(
        &self,
        round: &str,
        fingerprint: &str,
        expires_at: SystemTime,
        _now: SystemTime,
    ) -> Result<RoundUse, GuardError> {
        let before: Option<String> = redis::cmd("SET")
            .arg(self.space.key(round))
            .arg(fingerprint)
            .arg("NX")
            .arg("GET")
            .arg("PXAT")
            .arg(self.space.expiry(expires_at))
            .query_async(&mut self.conn.clone())
            .await
            .map_err(|e| GuardError::new(unavailable(e)))?;
        Ok(match before {
            None => RoundUse::First,
            Some(f) if f == fingerprint => RoundUse::Again,
            Some(_) => RoundUse::Other,
        })
    }
}
