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
/// replayed on any instance, runs each [`Cx::once`](crate::Cx::once) effect once, and serves
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
    /// needs them; `rediss://` is not built in) and checks that it answers.
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
        Ok(Redis::new(conn))
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
    /// The URL, its password replaced by `***`.
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

/// `url` with the password of its user info replaced by `***`.
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    match authority.rsplit_once('@') {
        Some((user_info, host)) => {
            let user = user_info.split_once(':').map_or(user_info, |(u, _)| u);
            let hidden = if user_info.contains(':') { ":***" } else { "" };
            format!("{scheme}://{user}{hidden}@{host}{path}")
        }
        None => url.to_owned(),
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

/// A Redis failure as the client is told of it: its category only (the detail, which may name
/// hosts, goes to the log).
fn unavailable(e: redis::RedisError) -> String {
    tracing::warn!(error = %e, "the fleet's shared state on Redis");
    format!(
        "Redis, the server's shared state, did not answer ({}); try again",
        e.category()
    )
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn a_password_never_reaches_an_error() {
        assert_eq!(
            redact("redis://app:s3cret@10.0.0.5:6379/0"),
            "redis://app:***@10.0.0.5:6379/0"
        );
        assert_eq!(redact("redis://:s3cret@cache/1"), "redis://:***@cache/1");
        assert_eq!(redact("redis://app@cache"), "redis://app@cache");
        assert_eq!(redact("redis://127.0.0.1:6379"), "redis://127.0.0.1:6379");
        assert_eq!(redact("not a url"), "not a url");
        assert_eq!(
            redact("redis://u:p@ss:w@host:1/0"),
            "redis://u:***@host:1/0",
            "the last @ ends the user info"
        );
    }
}
