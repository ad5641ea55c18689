//! The effect ledger a fleet shares on Redis.
//!
//! One string per effect, `{prefix}{flow}/{name}`: empty while claimed, `=` and the outcome's
//! JSON once recorded, expiring at the claim's expiry plus the skew (`PXAT`). Claiming is one
//! script (read, or claim when absent); recording is `SET .. XX KEEPTTL`; releasing is a script
//! that deletes only an unrecorded claim.

use super::{Keyspace, unavailable};
use crate::state::{Claim, Ledger, LedgerError};
use redis::Script;
use redis::aio::ConnectionManager;
use std::time::SystemTime;

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
    space: Keyspace,
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
            space: Keyspace::new(RedisLedger::DEFAULT_PREFIX),
            claim: Script::new(CLAIM),
            release: Script::new(RELEASE),
        }
    }
}

keyed_store!(RedisLedger, "their expiry");

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
        let found: Option<String> = self
            .claim
            .key(self.space.key(key))
            .arg(self.space.expiry(expires_at))
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
            .arg(self.space.key(key))
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
            .key(self.space.key(key))
            .invoke_async(&mut self.conn.clone())
            .await
            .map_err(failed)?;
        Ok(())
    }
}
