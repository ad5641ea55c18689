//! The effect ledger a fleet shares on Redis.
//!
//! One string per effect, `{prefix}{flow}/{name}`: `c:` and the claimant's id while claimed,
//! `=` and the outcome's JSON once recorded, expiring at the claim's expiry plus the skew
//! (`PXAT`). Each step is one script, atomic in Redis: claiming (read, or claim when absent),
//! recording and releasing (only the claimant's own claim), and extending (`PEXPIREAT .. GT`,
//! one command).
//!
//! A claim whose answer did not come back in time (Redis stalled by a slow disk, a fork,
//! `SIGSTOP`) may still be carried out when Redis wakes: its run was told that nothing was
//! done, and never runs the effect, but the claim would stay and make every later run of the
//! flow wait and answer [`Claim::Running`]. So the run that made it gives it back in the
//! background: "release if it is still mine", sent until Redis has answered for a while (the
//! claim, queued behind on the same connection, or on a dropped one, runs first). An outcome
//! whose record failed (the effect was done) is recorded the same way, so that a later run
//! finds it rather than the claim. Both are bounded: every 200 ms for at most 30 s, at most 1024
//! at once in a process.

use super::{Keyspace, unavailable};
use crate::state::{Claim, Ledger, LedgerError};
use redis::Script;
use redis::aio::ConnectionManager;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};

/// KEYS: the effect. ARGV: expiry (ms since the epoch), claimant. Returns what is there, or
/// nil after claiming it.
const CLAIM: &str = r"
local v = redis.call('GET', KEYS[1])
if v then return v end
redis.call('SET', KEYS[1], 'c:' .. ARGV[2], 'PXAT', ARGV[1])
return false
";

/// KEYS: the effect. ARGV: claimant, outcome. Records only over the claimant's own claim.
const RECORD: &str = r"
if redis.call('GET', KEYS[1]) == 'c:' .. ARGV[1] then
  redis.call('SET', KEYS[1], '=' .. ARGV[2], 'KEEPTTL')
  return 1
end
return 0
";

/// KEYS: the effect. ARGV: claimant. Deletes it only while it is the claimant's claim.
const RELEASE: &str = r"
if redis.call('GET', KEYS[1]) == 'c:' .. ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
";

/// How often a step is sent again in the background (a claim given back, an outcome recorded).
const BACKGROUND_EVERY: Duration = Duration::from_millis(200);
/// How long it is sent at most, in all.
const BACKGROUND_FOR: Duration = Duration::from_secs(30);
/// How many such steps wait for Redis at once, in this process, at most: each is a task and
/// a command every 200 ms. Past it a claim whose answer was lost stays until it expires (later
/// runs answer that the step may have been done), which is true and never doubles an effect.
const MAX_IN_BACKGROUND: usize = 1024;
static IN_BACKGROUND: AtomicUsize = AtomicUsize::new(0);

/// Counts a background step while it lives.
struct Counted;

impl Counted {
    /// One more step, or `None` at the bound.
    fn admit() -> Option<Counted> {
        if IN_BACKGROUND.fetch_add(1, Ordering::SeqCst) >= MAX_IN_BACKGROUND {
            IN_BACKGROUND.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(Counted)
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        IN_BACKGROUND.fetch_sub(1, Ordering::SeqCst);
    }
}

/// How long Redis must have answered "nothing of yours here" before it stops: a claim sent on
/// a connection that was dropped since may still run after the first answers of a new one.
const SETTLED: Duration = Duration::from_secs(2);

/// The [`Ledger`] a fleet shares on Redis (see [`Redis`](super::Redis), which makes it with
/// the guard and the task store on one connection).
#[derive(Clone)]
pub struct RedisLedger {
    conn: ConnectionManager,
    space: Keyspace,
    claim: Script,
    record: Script,
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
            record: Script::new(RECORD),
            release: Script::new(RELEASE),
        }
    }

    /// Releases `claimant`'s claim on `key`: `Ok(true)` when there was one to release.
    async fn release_now(&self, key: &str, claimant: &str) -> redis::RedisResult<bool> {
        let n: i64 = self
            .release
            .key(self.space.key(key))
            .arg(claimant)
            .invoke_async(&mut self.conn.clone())
            .await?;
        Ok(n == 1)
    }

    /// Records `outcome` over `claimant`'s claim on `key`: `Ok(true)` when it was there.
    async fn record_now(
        &self,
        key: &str,
        claimant: &str,
        outcome: &str,
    ) -> redis::RedisResult<bool> {
        let n: i64 = self
            .record
            .key(self.space.key(key))
            .arg(claimant)
            .arg(outcome)
            .invoke_async(&mut self.conn.clone())
            .await?;
        Ok(n == 1)
    }

    /// Gives `claimant`'s claim on `key` back in the background: its run did nothing.
    fn give_back(&self, key: &str, claimant: &str) {
        let claimant = claimant.to_owned();
        self.in_background(
            key,
            "a claim whose answer was lost given back",
            move |l, key| {
                let claimant = claimant.clone();
                async move { l.release_now(&key, &claimant).await }
            },
        );
    }

    /// Does `step` (a release or a record over this run's claim, which changes nothing once
    /// done) in the background, again and again, bounded (see the module): until it reports
    /// done, or Redis has answered "nothing of yours here" for a while.
    fn in_background<F, Fut>(&self, key: &str, what: &'static str, step: F)
    where
        F: Fn(RedisLedger, String) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = redis::RedisResult<bool>> + Send,
    {
        let (ledger, key) = (self.clone(), key.to_owned());
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let Some(counted) = Counted::admit() else {
            tracing::warn!(
                key,
                "{what}: not tried, {MAX_IN_BACKGROUND} such steps already wait for Redis; later runs of the flow answer that the step may have been done, until it expires"
            );
            return;
        };
        rt.spawn(async move {
            let _counted = counted;
            let start = tokio::time::Instant::now();
            let mut answered: Option<tokio::time::Instant> = None;
            while start.elapsed() < BACKGROUND_FOR {
                match step(ledger.clone(), key.clone()).await {
                    Ok(true) => {
                        tracing::info!(key, "{what}: done once Redis answered");
                        return;
                    }
                    Ok(false) => {
                        let since = *answered.get_or_insert_with(tokio::time::Instant::now);
                        if since.elapsed() >= SETTLED {
                            return;
                        }
                    }
                    Err(_) => {}
                }
                tokio::time::sleep(BACKGROUND_EVERY).await;
            }
            tracing::warn!(
                key,
                "{what}: Redis did not answer for {} s; later runs of the flow answer that the step may have been done, until it expires",
                BACKGROUND_FOR.as_secs()
            );
        });
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
        claimant: &str,
        expires_at: SystemTime,
        _now: SystemTime,
    ) -> Result<Claim, LedgerError> {
        let found: Option<String> = match self
            .claim
            .key(self.space.key(key))
            .arg(self.space.expiry(expires_at))
            .arg(claimant)
            .invoke_async(&mut self.conn.clone())
            .await
        {
            Ok(found) => found,
            Err(e) => {
                // Redis may still carry it out: this run does nothing, so it gives it back.
                self.give_back(key, claimant);
                return Err(failed(e));
            }
        };
        Ok(match found {
            None => Claim::First,
            Some(v) => match v.strip_prefix('=') {
                Some(outcome) => Claim::Done(outcome.to_owned()),
                None => Claim::Running,
            },
        })
    }

    async fn record(&self, key: &str, claimant: &str, outcome: &str) -> Result<(), LedgerError> {
        match self.record_now(key, claimant, outcome).await {
            Ok(true) => Ok(()),
            Ok(false) => {
                tracing::warn!(
                    key,
                    "an outcome was not recorded: the claim was no longer this run's"
                );
                Ok(())
            }
            Err(e) => {
                // The effect was done: its outcome is recorded as soon as Redis answers, so
                // that a later run of the flow finds it rather than a claim.
                let (claimant, outcome) = (claimant.to_owned(), outcome.to_owned());
                self.in_background(key, "an effect's outcome recorded late", move |l, key| {
                    let (claimant, outcome) = (claimant.clone(), outcome.clone());
                    async move { l.record_now(&key, &claimant, &outcome).await }
                });
                Err(failed(e))
            }
        }
    }

    async fn release(&self, key: &str, claimant: &str) -> Result<(), LedgerError> {
        if let Err(e) = self.release_now(key, claimant).await {
            self.give_back(key, claimant);
            return Err(failed(e));
        }
        Ok(())
    }

    async fn extend(&self, key: &str, until: SystemTime) -> Result<(), LedgerError> {
        let _: i64 = redis::cmd("PEXPIREAT")
            .arg(self.space.key(key))
            .arg(self.space.expiry(until))
            .arg("GT")
            .query_async(&mut self.conn.clone())
            .await
            .map_err(failed)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Counted, MAX_IN_BACKGROUND};

    #[test]
    fn background_steps_are_bounded_and_free_their_place_when_done() {
        let held: Vec<Counted> = std::iter::from_fn(Counted::admit)
            .take(MAX_IN_BACKGROUND + 1)
            .collect();
        assert_eq!(held.len(), MAX_IN_BACKGROUND, "never more than the bound");
        assert!(Counted::admit().is_none());
        drop(held);
        assert!(
            Counted::admit().is_some(),
            "a finished step frees its place"
        );
    }
}
