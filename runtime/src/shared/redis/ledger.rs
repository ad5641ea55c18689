//! The effect ledger a fleet shares on Redis.
//!
//! One string per effect, `{prefix}{flow}/{name}`: empty while claimed, `=` and the outcome's
//! JSON once recorded, expiring at the claim's expiry plus the skew (`PXAT`). Claiming is one
//! script (read, or claim when absent); recording is `SET .. XX KEEPTTL`; releasing is a script
//! that deletes only an unrecorded claim.

use super::{DEFAULT_SKEW, millis, unavailable};
use crate::state::{Claim, Ledger, LedgerError};
use redis::Script;
use redis::aio::ConnectionManager;
use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// KEYS: the effect. ARGV: expiry (ms since the epoch). Returns what is there, or nil after
/// claiming it.
const CLAIM: &str = r"
local v = redis.call('GET', KEYS[1])
if v then return v end
redis.call('SET', KEYS[1], '', 'PXAT', ARGV[1])
return false
";

/// KEYS: the effect. Deletes it only while it is an unrecorded claim.
const RELEASE: &str = r"
if redis.call('GET', KEYS[1]) == '' then return redis.call('DEL', KEYS[1]) end
return 0
";

/// The [`Ledger`] a fleet shares on Redis (see [`Redis`](super::Redis), which makes it with
/// the guard and the task store on one connection).
#[derive(Clone)]
pub struct RedisLedger {
    conn: ConnectionManager,
    prefix: String,
    skew_ms: u64,
    claim: Script,
    release: Script,
}

impl RedisLedger {
    /// The default key prefix.
    pub const DEFAULT_PREFIX: &'static str = "rondo:once:";

    /// A ledger on an existing connection.
    pub fn new(conn: ConnectionManager) -> Self {
        RedisLedger {
            conn,
            prefix: RedisLedger::DEFAULT_PREFIX.to_owned(),
            skew_ms: millis(DEFAULT_SKEW),
            claim: Script::new(CLAIM),
            release: Script::new(RELEASE),
        }
    }

    /// Keys start with `prefix` (default [`RedisLedger::DEFAULT_PREFIX`]).
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// Keys outlive their expiry by `skew` (default 30 s).
    pub fn with_skew(mut self, skew: Duration) -> Self {
        self.skew_ms = millis(skew);
        self
    }

    fn key(&self, key: &str) -> String {
        format!("{}{key}", self.prefix)
    }
}

impl fmt::Debug for RedisLedger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisLedger")
            .field("prefix", &self.prefix)
            .field("skew_ms", &self.skew_ms)
            .finish_non_exhaustive()
    }
}

fn failed(e: redis::RedisError) -> LedgerError {
    LedgerError::new(unavailable(e))
}

impl Ledger for RedisLedger {
    async fn claim(
        &self,
        key: &str,
        expires_at: SystemTime,
        _now: SystemTime,
    ) -> Result<Claim, LedgerError> {
        let at = expires_at
            .duration_since(UNIX_EPOCH)
            .map_or(0, millis)
            .saturating_add(self.skew_ms);
        let found: Option<String> = self
            .claim
            .key(self.key(key))
            .arg(at.max(1))
            .invoke_async(&mut self.conn.clone())
            .await
            .map_err(failed)?;
        Ok(match found {
            None => Claim::First,
            Some(v) => match v.strip_prefix('=') {
                Some(outcome) => Claim::Done(outcome.to_owned()),
                None => Claim::Running,
            },
        })
    }

    async fn record(&self, key: &str, outcome: &str) -> Result<(), LedgerError> {
        let _: Option<String> = redis::cmd("SET")
            .arg(self.key(key))
            .arg(format!("={outcome}"))
            .arg("XX")
            .arg("KEEPTTL")
            .query_async(&mut self.conn.clone())
            .await
            .map_err(failed)?;
        Ok(())
    }

    async fn release(&self, key: &str) -> Result<(), LedgerError> {
        let _: i64 = self
            .release
            .key(self.key(key))
            .invoke_async(&mut self.conn.clone())
            .await
            .map_err(failed)?;
        Ok(())
    }
}
