//! The task store a fleet shares on Redis.
//!
//! Layout (design §24): each task is one hash `{prefix}{id}` with the fields `v` (its version)
//! and `rec` (the record as JSON), expiring at `created + ttl + skew` (`PEXPIREAT`); each
//! principal's tasks are a sorted set `{prefix}owner:+{principal}` (`{prefix}owner:-` without
//! one) of ids scored by their expiry, which bounds how many one principal holds. Lua
//! scripts make the steps that must be atomic one command each, on one key each (so that on a
//! Redis Cluster, where a task and its principal's set live on different nodes, each runs
//! where its key is): reserving a place (count the principal's live tasks, refuse or add the
//! id), inserting the record (unless the id exists), and the compare-and-set write (replace
//! `rec` only when `v` is still the version read). Everything else is the trait's
//! read-modify-CAS loop.
//!
//! Creating is the reservation, then the insertion: the count and the reservation are one
//! atomic step, so no principal ever holds more than its bound. A create that fails between
//! the two leaves a reservation without a task, which counts against the bound until it
//! expires (the task's lifetime): it refuses sooner, never later.
//!
//! It needs Redis 7.0 or later (`PXAT`, `PEXPIRETIME`).

use super::{Keyspace, RedisConnection, conn, unavailable};
use crate::tasks::{StoreError, TaskId, TaskRecord, TaskStore};

/// Counts the principal's live tasks and reserves a place for the new one, or refuses.
/// KEYS: owner set. ARGV: now, bound, id, expiry, expiry + skew. Returns 1 (reserved), 0 (the
/// principal is at its bound), -1 (the id is already there).
const RESERVE: &str = r"
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1])
if redis.call('ZSCORE', KEYS[1], ARGV[3]) then return -1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
if redis.call('PEXPIRETIME', KEYS[1]) < tonumber(ARGV[5]) then
  redis.call('PEXPIREAT', KEYS[1], ARGV[5])
end
return 1
";

/// Inserts the record unless the id exists.
/// KEYS: task. ARGV: record JSON, version, expiry + skew. Returns 1 (stored), -1 (exists).
const INSERT: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'rec', ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
return 1
";

/// Replaces the record only if its version is still the one read.
/// KEYS: task. ARGV: expected version, new version, record JSON. Returns 1 (written) or 0.
const CAS: &str = r"
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'rec', ARGV[3])
return 1
";

/// A [`TaskStore`] on Redis, shared by every instance connected to the same server and key
/// prefix: a task created through one instance is polled, answered and completed through any.
///
/// Each call is a command or two on a [`RedisConnection`] (it reconnects by itself; by
/// default a command fails after 500 ms without an answer, and connecting after 1 s), and
/// fails with [`StoreError::Unavailable`] when Redis cannot be reached. How many records
/// it holds in all is bounded by Redis itself (`maxmemory`); per principal by
/// [`create`](TaskStore::create). [`wait_change`](TaskStore::wait_change) polls (it sleeps;
/// the caller reads again).
#[derive(Clone)]
pub struct RedisTaskStore {
    conn: RedisConnection,
    space: Keyspace,
}

impl RedisTaskStore {
    /// The default key prefix.
    pub const DEFAULT_PREFIX: &'static str = "rondo:task:";

    /// Connects to the Redis at `url` (`redis://host:port/db`, with `user:password@` when
    /// it needs them; [`Redis::open`](super::Redis::open) for the other ways).
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        Ok(RedisTaskStore::new(
            conn::one(url)
                .await
                .map_err(|e| StoreError::Unavailable(e.to_string()))?,
        ))
    }

    /// A store on an existing connection.
    pub fn new(conn: impl Into<RedisConnection>) -> Self {
        RedisTaskStore {
            conn: conn.into(),
            space: Keyspace::new(RedisTaskStore::DEFAULT_PREFIX),
        }
    }

    /// `script` on `key` with `args`, one `EVAL`, as a write that decides something.
    async fn eval(&self, script: &str, key: String, args: &[&str]) -> Result<i64, StoreError> {
        let mut cmd = redis::cmd("EVAL");
        cmd.arg(script).arg(1).arg(key).arg(args);
        self.conn
            .write(cmd)
            .await
            .map_err(|e| StoreError::Unavailable(unavailable(e)))
    }

    fn task_key(&self, id: &TaskId) -> String {
        self.space.key(id)
    }

    fn owner_key(&self, principal: Option<&str>) -> String {
        match principal {
            Some(p) => self.space.key(format_args!("owner:+{p}")),
            None => self.space.key("owner:-"),
        }
    }
}

// Instances share tasks exactly when they share the server and the prefix; reads still end at
// `created + ttl` by the reader's clock, whatever the skew.
keyed_store!(RedisTaskStore, "their records' expiry");

impl TaskStore for RedisTaskStore {
    async fn create(&self, record: &TaskRecord, max_live: usize) -> Result<(), StoreError> {
        record.check()?;
        let expires = record.expires_at_ms();
        let kept = expires.saturating_add(self.space.skew_ms);
        let owner = self.owner_key(record.principal.as_deref());
        let id = record.id.as_str();
        let reserved = self
            .eval(
                RESERVE,
                owner.clone(),
                &[
                    &record.created_at_ms.to_string(),
                    &max_live.to_string(),
                    id,
                    &expires.to_string(),
                    &kept.to_string(),
                ],
            )
            .await?;
        match reserved {
            1 => {}
            0 => return Err(StoreError::Full { max: max_live }),
            _ => return Err(StoreError::Exists),
        }
        let json = to_json(record)?;
        let stored = self
            .eval(
                INSERT,
                self.task_key(&record.id),
                &[&json, &record.version.to_string(), &kept.to_string()],
            )
            .await?;
        if stored != 1 {
            // Another principal's task has this id: the place reserved is given back.
            let _: redis::RedisResult<i64> = self
                .conn
                .query(redis::cmd("ZREM").arg(&owner).arg(id))
                .await;
            return Err(StoreError::Exists);
        }
        Ok(())
    }

    async fn load(&self, id: &TaskId, now_ms: u64) -> Result<Option<TaskRecord>, StoreError> {
        let (version, rec): (Option<u64>, Option<String>) = self
            .conn
            .query(
                redis::cmd("HMGET")
                    .arg(self.task_key(id))
                    .arg("v")
                    .arg("rec"),
            )
            .await
            .map_err(|e| StoreError::Unavailable(unavailable(e)))?;
        let (Some(version), Some(rec)) = (version, rec) else {
            return Ok(None);
        };
        let mut record: TaskRecord = serde_json::from_str(&rec).map_err(|e| {
            tracing::warn!(task = %id, error = %e, "a task record in Redis does not parse");
            StoreError::Unavailable("a stored task record does not parse".into())
        })?;
        record.version = version;
        Ok((record.id == *id && !record.is_expired(now_ms)).then_some(record))
    }

    async fn put_if(&self, record: &TaskRecord, expected: u64) -> Result<bool, StoreError> {
        // The rules are checked against the record at `expected`; the script writes only if
        // that is still the stored version, so what was checked is what is replaced.
        let Some(old) = self.load(&record.id, 0).await? else {
            return Ok(false);
        };
        if old.version != expected || old.status.is_terminal() {
            return Ok(false);
        }
        record.check_replaces(&old)?;
        let next = TaskRecord {
            version: expected + 1,
            ..record.clone()
        };
        let json = to_json(&next)?;
        let written = self
            .eval(
                CAS,
                self.task_key(&record.id),
                &[&expected.to_string(), &next.version.to_string(), &json],
            )
            .await?;
        Ok(written == 1)
    }
}

fn to_json(record: &TaskRecord) -> Result<String, StoreError> {
    serde_json::to_string(record).map_err(|e| StoreError::Invalid(e.to_string()))
}
