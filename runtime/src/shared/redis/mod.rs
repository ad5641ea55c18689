//! What a fleet shares on Redis (feature `redis`): [`Redis`], one connection for the replay
//! guard, the task store and the effect ledger, and each of the three on its own.
//!
//! It needs Redis 7.0 or later (`PXAT`, and `PEXPIRETIME` in the task store's create script)
//! on a single primary (with replicas or Sentinel), not Redis Cluster (a script touches two
//! keys). Every command runs on a [`ConnectionManager`], which reconnects by itself; a command
//! fails after 500 ms without an answer (about 1.1 s at most while the connection is being made
//! again: two attempts), and what it was for fails with it (a round is refused, an effect is not
//! done): nothing is ever accepted because Redis could not be asked.

/// `with_prefix`, `with_skew` and `Debug` for a store whose keys are its `space`.
macro_rules! keyed_store {
    ($store:ident, $outlive:literal) => {
        impl $store {
            #[doc = concat!("Keys start with `prefix` (default [`", stringify!($store), "::DEFAULT_PREFIX`]).")]
            pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
                self.space.prefix = prefix.into();
                self
            }

            #[doc = concat!("Keys outlive ", $outlive, " by `skew` (default 30 s), the clock difference allowed between instances and Redis.")]
            pub fn with_skew(mut self, skew: std::time::Duration) -> Self {
                self.space.skew_ms = super::millis(skew);
                self
            }
        }

        impl std::fmt::Debug for $store {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($store))
                    .field("prefix", &self.space.prefix)
                    .field("skew_ms", &self.space.skew_ms)
                    .finish_non_exhaustive()
            }
        }
    };
}

mod ledger;
mod replay;
mod tasks;

pub use ledger::RedisLedger;

pub use replay::RedisReplayGuard;
pub use tasks::RedisTaskStore;

use super::SharedState;
use redis::aio::ConnectionManager;
use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long past their expiry keys are kept by default: the clock skew allowed between the
/// instances and Redis, so that no instance sees an entry vanish before it expired by its own
/// clock.
const DEFAULT_SKEW: Duration = Duration::from_secs(30);

/// A fleet's shared state on one Redis: give it to every instance with
/// [`Server::shared_state`](crate::Server::shared_state), and the fleet refuses a round
/// replayed with other answers on any instance (and serves it sent again unchanged), runs each [`Cx::once`](crate::Cx::once) effect once, and serves
/// every task from every instance.
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use rondo_mcp::prelude::*;
/// use rondo_mcp::shared::Redis;
/// use rondo_mcp::state::KeyRing;
///
/// let keys = KeyRing::from_env("RONDO_STATE_KEYS")?.expect("the fleet's key ring");
/// let redis = Redis::connect("redis://10.0.0.5:6379/0").await?; // fails at once, naming the URL
/// let server = Server::new(Router::new(ServerInfo::new("shop", "1.0.0")))
///     .state_keys(keys)
///     .shared_state(redis);
/// # let _ = server; Ok(()) }
/// ```
///
/// Keys start with the prefix (default `rondo:`): `{prefix}replay:`, `{prefix}task:` and
/// `{prefix}once:`. Servers that share a Redis share their state exactly when they share the
/// prefix.
#[derive(Clone)]
pub struct Redis {
    conn: ConnectionManager,
    prefix: String,
}

impl Redis {
    /// The default key prefix.
    pub const DEFAULT_PREFIX: &'static str = "rondo:";

    /// Connects to the Redis at `url` (`redis://host:port/db`, with `user:password@` when it
    /// needs them; `rediss://` is not built in) and checks that it answers. It then reads how
    /// Redis keeps its data (`CONFIG GET appendonly save maxmemory-policy`) and logs a warning
    /// (target `rondo::fleet`) when a restart or memory pressure would make it forget the
    /// rounds taken and the effects recorded (see [`Persistence`]).
    pub async fn connect(url: &str) -> Result<Redis, ConnectError> {
        let fail = |e: redis::RedisError| ConnectError {
            url: redact(url),
            reason: e.to_string(),
        };
        let mut conn = manager(url).await.map_err(fail)?;
        let _: String = redis::cmd("PING")
            .query_async(&mut conn)
            .await
            .map_err(fail)?;
        let redis = Redis::new(conn);
        match redis.persistence().await {
            Ok(kept) => {
                if let Some(risk) = kept.risk() {
                    tracing::warn!(target: "rondo::fleet", url = %redact(url), "{risk}");
                }
            }
            Err(e) => tracing::info!(
                target: "rondo::fleet",
                url = %redact(url),
                error = %e,
                "could not read how Redis keeps its data (CONFIG GET refused?): make sure it runs with appendonly yes and maxmemory-policy noeviction"
            ),
        }
        Ok(redis)
    }

    /// How this Redis keeps its data, as `CONFIG GET` says.
    pub async fn persistence(&self) -> redis::RedisResult<Persistence> {
        let mut conn = self.conn.clone();
        let mut get = async |name: &str| -> redis::RedisResult<String> {
            let pair: Vec<String> = redis::cmd("CONFIG")
                .arg("GET")
                .arg(name)
                .query_async(&mut conn)
                .await?;
            Ok(pair.into_iter().nth(1).unwrap_or_default())
        };
        Ok(Persistence {
            append_only: get("appendonly").await? == "yes",
            fsync: get("appendfsync").await?,
            snapshots: get("save").await?,
            eviction: get("maxmemory-policy").await?,
        })
    }

    /// Connects to the Redis whose URL is in the environment variable `var` (such as
    /// `RONDO_REDIS_URL`), or `None` when it is unset or empty.
    pub async fn from_env(var: &str) -> Result<Option<Redis>, ConnectError> {
        match std::env::var(var) {
            Ok(url) if !url.trim().is_empty() => Redis::connect(url.trim()).await.map(Some),
            _ => Ok(None),
        }
    }

    /// Shared state on an existing connection.
    pub fn new(conn: ConnectionManager) -> Self {
        Redis {
            conn,
            prefix: Redis::DEFAULT_PREFIX.to_owned(),
        }
    }

    /// Keys start with `prefix` (default [`Redis::DEFAULT_PREFIX`]).
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// The replay guard alone.
    pub fn replay_guard(&self) -> RedisReplayGuard {
        RedisReplayGuard::new(self.conn.clone()).with_prefix(format!("{}replay:", self.prefix))
    }

    /// The task store alone.
    pub fn task_store(&self) -> RedisTaskStore {
        RedisTaskStore::new(self.conn.clone()).with_prefix(format!("{}task:", self.prefix))
    }

    /// The effect ledger alone.
    pub fn ledger(&self) -> RedisLedger {
        RedisLedger::new(self.conn.clone()).with_prefix(format!("{}once:", self.prefix))
    }
}

impl fmt::Debug for Redis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Redis")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl From<Redis> for SharedState {
    fn from(redis: Redis) -> SharedState {
        SharedState::new(redis.replay_guard(), redis.task_store(), redis.ledger())
    }
}

/// Where a store's keys live: their prefix, and how long they outlive their expiry.
#[derive(Clone)]
struct Keyspace {
    prefix: String,
    skew_ms: u64,
}

impl Keyspace {
    fn new(prefix: &str) -> Keyspace {
        Keyspace {
            prefix: prefix.to_owned(),
            skew_ms: millis(DEFAULT_SKEW),
        }
    }

    /// The key of `name`.
    fn key(&self, name: impl fmt::Display) -> String {
        format!("{}{name}", self.prefix)
    }

    /// When a key for something that expires at `at` leaves Redis (ms since the epoch, at
    /// least 1: `PXAT` takes no 0).
    fn expiry(&self, at: SystemTime) -> u64 {
        at.duration_since(UNIX_EPOCH)
            .map_or(0, millis)
            .saturating_add(self.skew_ms)
            .max(1)
    }
}

/// Redis could not be reached at start: the URL (without its password) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectError {
    url: String,
    reason: String,
}

impl ConnectError {
    /// The URL as it may be printed: its user name, password and query values replaced by
    /// `***`, or a sentence in its place when it does not parse.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl fmt::Display for ConnectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot reach Redis at {}: {}", self.url, self.reason)
    }
}

impl std::error::Error for ConnectError {}

/// `url` as it may be printed: parsed, with its user name, its password and the value of
/// every query parameter (`?password=`) replaced by `***`; a URL that does not parse, or whose
/// path is not a database number (a password with an unencoded `/` or `@` leaves part of
/// itself there), is not printed at all.
pub(crate) fn redact(url: &str) -> String {
    const HIDDEN: &str = "***";
    const UNPRINTABLE: &str = "(a URL that does not parse, not shown: it may hold a password)";
    let Ok(mut parsed) = url::Url::parse(url) else {
        return UNPRINTABLE.to_owned();
    };
    let path_is_db = matches!(parsed.scheme(), "redis" | "rediss" | "valkey" | "valkeys")
        .then(|| parsed.path().trim_start_matches('/'))
        .is_none_or(|db| db.bytes().all(|b| b.is_ascii_digit()));
    if !path_is_db || parsed.fragment().is_some() || parsed.cannot_be_a_base() {
        return UNPRINTABLE.to_owned();
    }
    let hidden = |part: &str| if part.is_empty() { "" } else { HIDDEN };
    let (user, password) = (
        parsed.username().to_owned(),
        parsed.password().map(str::to_owned),
    );
    if parsed.set_username(hidden(&user)).is_err()
        || parsed
            .set_password(password.as_deref().map(hidden))
            .is_err()
    {
        return UNPRINTABLE.to_owned();
    }
    let keys: Vec<String> = parsed.query_pairs().map(|(k, _)| k.into_owned()).collect();
    if !keys.is_empty() {
        parsed
            .query_pairs_mut()
            .clear()
            .extend_pairs(keys.iter().map(|k| (k.as_str(), HIDDEN)));
    }
    parsed.to_string().replace("%2A%2A%2A", HIDDEN)
}

/// How a Redis keeps its data ([`Redis::persistence`]): what decides whether it still knows,
/// after a restart or under memory pressure, which rounds were taken and which effects done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Persistence {
    /// `appendonly yes`: every write is logged to a file and read back at start.
    pub append_only: bool,
    /// `appendfsync`: `always` (each write on disk before it is acknowledged), `everysec`
    /// (up to a second of writes lost in a crash) or `no`.
    pub fsync: String,
    /// `save`: the snapshot schedule (`""`: none).
    pub snapshots: String,
    /// `maxmemory-policy`: `noeviction` refuses writes when full; any other policy deletes
    /// keys to make room.
    pub eviction: String,
}

impl Persistence {
    /// What a fleet risks with this Redis, in a sentence, or `None` when it keeps everything
    /// it acknowledged (`appendonly yes`, `appendfsync always`, `noeviction`).
    pub fn risk(&self) -> Option<String> {
        let mut risks = Vec::new();
        if !self.append_only {
            risks.push(if self.snapshots.trim().is_empty() {
                "keeps nothing on disk (appendonly no, no snapshots): restarted, it forgets every round taken and every effect recorded".to_owned()
            } else {
                format!(
                    "keeps only snapshots (appendonly no, save \"{}\"): restarted, it forgets what was written since the last one",
                    self.snapshots
                )
            });
        } else if self.fsync != "always" {
            risks.push(format!(
                "writes its append-only file with appendfsync {}: a crash loses up to the last second of writes",
                self.fsync
            ));
        }
        if self.eviction != "noeviction" {
            risks.push(format!(
                "deletes keys when full (maxmemory-policy {}): it may forget a round taken or an effect recorded",
                self.eviction
            ));
        }
        (!risks.is_empty()).then(|| {
            format!(
                "the fleet's shared state on Redis {}; a round answered before could then be replayed, and its effect done again. Run Redis with --appendonly yes --appendfsync always --maxmemory-policy noeviction (the guide's fleet page)",
                risks.join("; it ")
            )
        })
    }
}

/// How long a command may wait for its answer, and a connection attempt for Redis.
const ANSWER: Duration = Duration::from_millis(500);

/// A connection to `url` that reconnects by itself: when it is lost, the next command makes
/// two attempts (500 ms each at most, a pause of up to 100 ms between) and fails with them,
/// and the command after that tries again. (The client's default, six attempts with pauses
/// growing to 3.2 s, kept a round waiting 6 to 9 s for its refusal while Redis was down.)
async fn manager(url: &str) -> redis::RedisResult<ConnectionManager> {
    let config = redis::aio::ConnectionManagerConfig::new()
        .set_number_of_retries(1)
        .set_connection_timeout(Some(ANSWER))
        .set_response_timeout(Some(ANSWER));
    ConnectionManager::new_with_config(redis::Client::open(url)?, config).await
}

/// A Redis failure as the client is told of it: what happened, in words (the detail, which
/// may name hosts, goes to the log). Every one begins "Redis, the server's shared state, ".
fn unavailable(e: redis::RedisError) -> String {
    tracing::warn!(error = %e, "the fleet's shared state on Redis");
    let what = if e.code() == Some("OOM") {
        "is full (maxmemory) and refused to record this; try again later".to_owned()
    } else if e.is_timeout() {
        "did not answer in time; try again".to_owned()
    } else if e.is_io_error() || e.is_connection_dropped() || e.is_connection_refusal() {
        "did not answer (I/O error); try again".to_owned()
    } else if e.code() == Some("LOADING") {
        "is loading its data after a restart; try again".to_owned()
    } else {
        format!("did not answer ({}); try again", e.category())
    };
    format!("Redis, the server's shared state, {what}")
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::{Persistence, redact};

    #[test]
    fn a_password_never_reaches_an_error() {
        let hidden = "(a URL that does not parse, not shown: it may hold a password)";
        for (url, shown) in [
            (
                "redis://app:s3cret@10.0.0.5:6379/0",
                "redis://***:***@10.0.0.5:6379/0",
            ),
            ("redis://:s3cret@cache/1", "redis://:***@cache/1"),
            ("redis://app@cache", "redis://***@cache"),
            ("redis://127.0.0.1:6379", "redis://127.0.0.1:6379"),
            ("redis://127.0.0.1:6379/", "redis://127.0.0.1:6379/"),
            // Encoded as a URL must be: `/`, `@`, `%`, `:` in the password.
            ("redis://:sl%2Fa%40s%25h%3Ax@h:1/0", "redis://:***@h:1/0"),
            ("redis://u:p@ss:w@host:1/0", "redis://***:***@host:1/0"),
            ("redis://u:p%40ss:w@host:1/0", "redis://***:***@host:1/0"),
            // Not encoded: the URL does not parse, or its path is not a database.
            ("redis://:sl/ashS3cret@h:6379", hidden),
            ("redis://u:123/x@h", hidden),
            ("redis://:a#b@h", hidden),
            ("not a url", hidden),
            // In the query.
            (
                "redis://h:1/0?password=S3cret&protocol=resp3",
                "redis://h:1/0?password=***&protocol=***",
            ),
            ("redis://h?user=a%26b", "redis://h?user=***"),
        ] {
            let got = redact(url);
            assert_eq!(got, shown, "{url}");
            for secret in [
                "s3cret",
                "S3cret",
                "sl",
                "ashS3cret",
                "a%26b",
                "p%40ss",
                "123/x",
            ] {
                assert!(
                    !got.contains(secret) || url.contains(&format!("h{secret}")),
                    "{url} -> {got}"
                );
            }
        }
    }

    #[test]
    fn the_risk_of_a_redis_that_forgets_is_named() {
        let safe = Persistence {
            append_only: true,
            fsync: "always".into(),
            snapshots: String::new(),
            eviction: "noeviction".into(),
        };
        assert_eq!(safe.risk(), None);
        let none = Persistence {
            append_only: false,
            ..safe.clone()
        };
        let risk = none.risk().unwrap();
        assert!(
            risk.contains("keeps nothing on disk") && risk.contains("replayed"),
            "{risk}"
        );
        let snapshots = Persistence {
            append_only: false,
            snapshots: "3600 1".into(),
            ..safe.clone()
        };
        assert!(snapshots.risk().unwrap().contains("keeps only snapshots"));
        let second = Persistence {
            fsync: "everysec".into(),
            eviction: "allkeys-lru".into(),
            ..safe
        };
        let risk = second.risk().unwrap();
        assert!(
            risk.contains("up to the last second") && risk.contains("maxmemory-policy allkeys-lru"),
            "{risk}"
        );
    }
}
