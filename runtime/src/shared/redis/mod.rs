//! What a fleet shares on Redis (feature `redis`): [`Redis`], one connection for the replay
//! guard, the task store and the effect ledger, and each of the three on its own.
//!
//! It needs Redis 7.0 or later (`PXAT`, `PEXPIRETIME`): one Redis, the primary a set of
//! Sentinels follows ([`RedisConfig::sentinel`]), or a Redis Cluster
//! ([`RedisConfig::cluster`]), over TCP or TLS. Every script touches one key, and the keys of
//! one flow share a hash tag, so all of it works on a cluster. Every command runs on a
//! [`RedisConnection`], which reconnects by itself; a command fails after 500 ms without an
//! answer (about 1.1 s at most while the connection is being made again: two attempts; 1.5 s
//! on a cluster, redirections included), and what it was for fails with it (a round is
//! refused, an effect is not done): nothing is ever accepted because Redis could not be asked.

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

mod config;
mod conn;
mod ledger;
mod replay;
mod sentinel;
mod tasks;

pub use config::RedisConfig;
pub use conn::RedisConnection;
pub use ledger::RedisLedger;
pub use replay::RedisReplayGuard;
pub use tasks::RedisTaskStore;

use super::SharedState;
use redis::aio::ConnectionLike;
use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long past their expiry keys are kept by default: the clock skew allowed between the
/// instances and Redis, so that no instance sees an entry vanish before it expired by its own
/// clock.
const DEFAULT_SKEW: Duration = Duration::from_secs(30);

/// A fleet's shared state on Redis: give it to every instance with
/// [`Server::shared_state`](crate::Server::shared_state), and the fleet refuses a round
/// replayed with other answers on any instance (and serves it sent again unchanged), runs each [`Cx::once`](crate::Cx::once) effect once, and serves
/// every task from every instance.
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use rondo_mcp::prelude::*;
/// use rondo_mcp::shared::{Redis, RedisConfig};
/// use rondo_mcp::state::KeyRing;
///
/// let keys = KeyRing::from_env("RONDO_STATE_KEYS")?.expect("the fleet's key ring");
/// // One Redis, a Sentinel-managed primary or a Redis Cluster, as RONDO_REDIS_* say;
/// // fails at once, naming where without secrets.
/// let config = RedisConfig::from_env()?.expect("RONDO_REDIS_URL, _SENTINEL or _CLUSTER");
/// let redis = Redis::open(&config).await?;
/// let server = Server::new(Router::new(ServerInfo::new("shop", "1.0.0")))
///     .state_keys(keys)
///     .shared_state(redis);
/// # let _ = server; Ok(()) }
/// ```
///
/// Keys start with the prefix (default `rondo:`): `{prefix}replay:`, `{prefix}task:` and
/// `{prefix}once:`. Servers that share a Redis share their state exactly when they share the
/// prefix. The keys of one flow (its rounds in the replay guard, its effects in the ledger)
/// carry the flow id as a hash tag (`{prefix}once:{<flow>}/<name>`), so that on a Redis
/// Cluster they live on one node; a prefix should hold no `{`.
#[derive(Clone)]
pub struct Redis {
    conn: RedisConnection,
    prefix: String,
}

impl Redis {
    /// The default key prefix.
    pub const DEFAULT_PREFIX: &'static str = "rondo:";

    /// Connects to the Redis at `url` (`redis://host:port/db`, `rediss://` for TLS verified
    /// with the system's roots, `user:password@` when it needs them): [`Redis::open`] with
    /// [`RedisConfig::url`].
    pub async fn connect(url: &str) -> Result<Redis, ConnectError> {
        Redis::open(&RedisConfig::url(url)).await
    }

    /// Connects as `config` says (one Redis, a Sentinel-managed primary, a Redis Cluster; TLS
    /// files; replicas to wait for) and checks that every node it names answers: a CA file
    /// that cannot be read, a certificate that does not verify, a node of the cluster that is
    /// down, a primary no Sentinel knows, each fails here, naming where without secrets. It
    /// then reads how Redis keeps its data (`CONFIG GET appendonly appendfsync save
    /// maxmemory-policy`, on every node it checked) and logs a warning (target
    /// `rondo::fleet`) when a restart or memory pressure would make it forget the rounds taken
    /// and the effects recorded (see [`Persistence`]).
    pub async fn open(config: &RedisConfig) -> Result<Redis, ConnectError> {
        let place = config.describe();
        let opened = conn::open(config).await.map_err(|reason| ConnectError {
            url: place.clone(),
            reason,
        })?;
        for (node, mut conn) in opened.nodes {
            match persistence_of(&mut conn).await {
                Ok(kept) => {
                    if let Some(risk) = kept.risk() {
                        tracing::warn!(target: "rondo::fleet", redis = %place, node = %node, "{risk}");
                    }
                }
                Err(e) => tracing::info!(
                    target: "rondo::fleet",
                    redis = %place,
                    node = %node,
                    error = %e,
                    "could not read how Redis keeps its data (CONFIG GET refused?): make sure it runs with appendonly yes and maxmemory-policy noeviction"
                ),
            }
            if config.wait > 0 {
                let replicas = replicas_of(&mut conn).await.unwrap_or(0);
                if replicas < config.wait {
                    tracing::warn!(
                        target: "rondo::fleet",
                        redis = %place,
                        "the primary has {replicas} replicas connected and {} asks for {}: every round is refused (\"try again\") until enough are",
                        config::WAIT,
                        config.wait
                    );
                }
            }
        }
        Ok(Redis::new(opened.conn))
    }

    /// How this Redis keeps its data, as `CONFIG GET` says (on a Redis Cluster, one node's).
    pub async fn persistence(&self) -> redis::RedisResult<Persistence> {
        persistence_of(&mut self.conn.clone()).await
    }

    /// Connects to the Redis the `RONDO_REDIS_*` variables describe
    /// ([`RedisConfig::from_env`]), or `None` when none says where it is.
    pub async fn from_env() -> Result<Option<Redis>, ConnectError> {
        match RedisConfig::from_env()? {
            Some(config) => Redis::open(&config).await.map(Some),
            None => Ok(None),
        }
    }

    /// Shared state on an existing connection (a `ConnectionManager`, a `ClusterConnection`,
    /// or a [`RedisConnection`]).
    pub fn new(conn: impl Into<RedisConnection>) -> Self {
        Redis {
            conn: conn.into(),
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
            .field("conn", &self.conn)
            .finish()
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

    /// The key of `name`, whose part before byte `flow_ends` is a flow id: that part as the
    /// key's hash tag, `{prefix}{<flow>}<rest>`, so that every key of one flow lands in one
    /// slot of a Redis Cluster (one node holds the flow). A name without one is its own tag.
    fn flow_key(&self, name: &str, flow_ends: Option<usize>) -> String {
        let (flow, rest) = name.split_at(flow_ends.unwrap_or(name.len()));
        format!("{}{{{flow}}}{rest}", self.prefix)
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

/// Redis could not be reached at start, or its configuration cannot be used: where (without
/// secrets) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectError {
    url: String,
    reason: String,
}

impl ConnectError {
    /// Where Redis was looked for, as it may be printed ([`RedisConfig::describe`]: every URL
    /// without its user name, password and query values, or a sentence in its place when it
    /// does not parse); empty for a configuration that names no place.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl fmt::Display for ConnectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.url.is_empty() {
            write!(f, "the Redis configuration: {}", self.reason)
        } else {
            write!(f, "cannot reach Redis at {}: {}", self.url, self.reason)
        }
    }
}

impl std::error::Error for ConnectError {}

/// How `conn`'s node keeps its data.
async fn persistence_of<C: ConnectionLike + Send>(conn: &mut C) -> redis::RedisResult<Persistence> {
    let mut get = async |name: &str| -> redis::RedisResult<String> {
        let pair: Vec<String> = redis::cmd("CONFIG")
            .arg("GET")
            .arg(name)
            .query_async(conn)
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

/// How many replicas `conn`'s node has connected (`INFO replication`).
async fn replicas_of<C: ConnectionLike + Send>(conn: &mut C) -> redis::RedisResult<u32> {
    let info: String = redis::cmd("INFO")
        .arg("replication")
        .query_async(conn)
        .await?;
    Ok(info
        .lines()
        .find_map(|l| l.trim().strip_prefix("connected_slaves:"))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0))
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
    } else if e.code() == Some("NOREPLICAS") {
        "did not copy this to its replicas in time (NOREPLICAS); try again".to_owned()
    } else if matches!(e.code(), Some("READONLY" | "MASTERDOWN")) {
        "is failing over to another primary; try again".to_owned()
    } else if matches!(e.code(), Some("CLUSTERDOWN")) {
        "is a cluster that does not serve this key now (CLUSTERDOWN); try again".to_owned()
    } else if matches!(e.code(), Some("MOVED" | "ASK" | "TRYAGAIN")) {
        "is moving this key to another node; try again".to_owned()
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
    use super::Persistence;

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
