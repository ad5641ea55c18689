//! The task store a fleet shares on Redis.
//!
//! Layout (design §24): each task is one hash `{prefix}{id}` with the fields `v` (its version)
//! and `rec` (the record as JSON), expiring at `created + ttl + skew` (`PEXPIREAT`); each
//! principal's tasks are a sorted set `{prefix}owner:+{principal}` (`{prefix}owner:-` without
//! one) of ids scored by their expiry, which bounds how many one principal holds. Two Lua
//! scripts make the steps that must be atomic one command each: creating (count the
//! principal's live tasks, refuse or insert) and the compare-and-set write (replace `rec` only
//! when `v` is still the version read). Everything else is the trait's read-modify-CAS loop.
//!
//! It needs Redis 6.2 or later (`PXAT`; the create script also uses `PEXPIRETIME`, 7.0) on a
//! single primary (with replicas or Sentinel): the create script touches two keys, which
//! Redis Cluster would put in different slots.

use super::{Keyspace, manager, unavailable};
use crate::tasks::{StoreError, TaskId, TaskRecord, TaskStore};
use redis::Script;
use redis::aio::ConnectionManager;

/// Counts the principal's live tasks and inserts the new one, or refuses.
/// KEYS: task, owner set. ARGV: record JSON, version, expiry, expiry + skew, now, bound, id.
/// Returns 1 (stored), 0 (the principal is at its bound), -1 (the id exists).
const CREATE: &str = r"
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[5])
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[6]) then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'rec', ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[7])
if redis.call('PEXPIRETIME', KEYS[2]) < tonumber(ARGV[4]) then
  redis.call('PEXPIREAT', KEYS[2], ARGV[4])
end
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
/// Each call is a command or two on a [`ConnectionManager`] (it reconnects by itself; by
/// default a command fails after 500 ms without an answer, and connecting after 1 s), and
/// fails with [`StoreError::Unavailable`] when Redis cannot be reached. How many records
/// it holds in all is bounded by Redis itself (`maxmemory`); per principal by
/// [`create`](TaskStore::create). [`wait_change`](TaskStore::wait_change) polls (it sleeps;
/// the caller reads again).
#[derive(Clone)]
pub struct RedisTaskStore {
    conn: ConnectionManager,
    space: Keyspace,
    create: Script,
    cas: Script,
}

impl RedisTaskStore {
    /// The default key prefix.
    pub const DEFAULT_PREFIX: &'static str = "rondo:task:";

    /// Connects to the Redis at `url` (`redis://host:port/db`, with `user:password@` when
    /// it needs them).
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        Ok(RedisTaskStore::new(
            manager(url)
                .await
                .map_err(|e| StoreError::Unavailable(e.to_string()))?,
        ))
    }

    /// A store on an existing connection.
    pub fn new(conn: ConnectionManager) -> Self {
        RedisTaskStore {
            conn,
            space: Keyspace::new(RedisTaskStore::DEFAULT_PREFIX),
            create: Script::new(CREATE),
            cas: Script::new(CAS),
        }
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
        let stored: i64 = self
            .create
            .key(self.task_key(&record.id))
            .key(self.owner_key(record.principal.as_deref()))
            .arg(to_json(record)?)
            .arg(record.version)
            .arg(expires)
            .arg(expires.saturating_add(self.space.skew_ms))
            .arg(record.created_at_ms)
            .arg(max_live)
            .arg(record.id.as_str())
            .invoke_async(&mut self.conn.clone())
            .await
            .map_err(|e| StoreError::Unavailable(unavailable(e)))?;
        match stored {
            1 => Ok(()),
            0 => Err(StoreError::Full { max: max_live }),
            _ => Err(StoreError::Exists),
        }
    }

    async fn load(&self, id: &TaskId, now_ms: u64) -> Result<Option<TaskRecord>, StoreError> {
        let (version, rec): (Option<u64>, Option<String>) = redis::cmd("HMGET")
            .arg(self.task_key(id))
            .arg("v")
            .arg("rec")
            .query_async(&mut self.conn.clone())
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
        let written: i64 = self
            .cas
            .key(self.task_key(&record.id))
            .arg(expected)
            .arg(next.version)
            .arg(to_json(&next)?)
            .invoke_async(&mut self.conn.clone())
            .await
            .map_err(|e| StoreError::Unavailable(unavailable(e)))?;
        Ok(written == 1)
    }
}

fn to_json(record: &TaskRecord) -> Result<String, StoreError> {
    serde_json::to_string(record).map_err(|e| StoreError::Invalid(e.to_string()))
}
