//! A connection to the primary a set of Sentinels follows: asked for at start, asked for again
//! after any failure that may mean the primary moved, never reconnected to the old address
//! without asking (a primary that restarts comes back as a replica of the new one).

use redis::aio::{ConnectionLike, MultiplexedConnection};
use redis::sentinel::SentinelClient;
use redis::{AsyncConnectionConfig, Cmd, Pipeline, RedisError, RedisResult, Value};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How long finding the primary may take, in all: the Sentinels asked one after another, the
/// primary they name connected to and asked its role.
const FIND: Duration = Duration::from_millis(1_000);

/// The primary of one name, wherever the Sentinels say it is.
pub(super) struct Followed {
    /// Asks the Sentinels; one question at a time (the other commands wait for its answer).
    sentinels: tokio::sync::Mutex<SentinelClient>,
    /// The connection to the primary, and which one it is (a failure drops only its own).
    primary: Mutex<Option<(u64, MultiplexedConnection)>>,
    /// Where it was last found, to log a move.
    at: Mutex<String>,
    made: AtomicU64,
    config: AsyncConnectionConfig,
    db: i64,
}

impl Followed {
    /// Finds the primary now: an error when no Sentinel knows it or it cannot be reached.
    pub(super) async fn start(
        sentinels: SentinelClient,
        config: AsyncConnectionConfig,
        db: i64,
    ) -> RedisResult<Followed> {
        let followed = Followed {
            sentinels: tokio::sync::Mutex::new(sentinels),
            primary: Mutex::new(None),
            at: Mutex::new(String::new()),
            made: AtomicU64::new(0),
            config,
            db,
        };
        followed.connection().await?;
        Ok(followed)
    }

    pub(super) fn db(&self) -> i64 {
        self.db
    }

    /// The connection to the primary, found again when there is none.
    pub(super) async fn connection(&self) -> RedisResult<(u64, MultiplexedConnection)> {
        if let Some(c) = self.current() {
            return Ok(c);
        }
        let found = tokio::time::timeout(FIND, async {
            let mut sentinels = self.sentinels.lock().await;
            // Another command may have found it while this one waited.
            if let Some(c) = self.current() {
                return Ok(c);
            }
            let client = sentinels.async_get_client().await?;
            let conn = client
                .get_multiplexed_async_connection_with_config(&self.config)
                .await?;
            let made = self.made.fetch_add(1, Ordering::SeqCst) + 1;
            let addr = client.get_connection_info().addr().to_string();
            let mut at = self.at.lock().unwrap_or_else(|e| e.into_inner());
            if !at.is_empty() && *at != addr {
                tracing::warn!(target: "rondo::fleet", from = %at, to = %addr, "the Redis primary moved (a Sentinel failover): the fleet's shared state follows it");
            }
            *at = addr;
            *self.primary.lock().unwrap_or_else(|e| e.into_inner()) = Some((made, conn.clone()));
            Ok((made, conn))
        })
        .await;
        found.unwrap_or_else(|_| {
            Err(RedisError::from(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the Sentinels did not name a reachable primary in time",
            )))
        })
    }

    fn current(&self) -> Option<(u64, MultiplexedConnection)> {
        self.primary
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// After `e` on connection `made`: when the primary may have moved (the connection failed,
    /// timed out, or the node answers as a replica), the next command asks the Sentinels.
    fn failed(&self, made: u64, e: &RedisError) {
        let moved = e.is_io_error()
            || e.is_timeout()
            || e.is_connection_dropped()
            || e.is_connection_refusal()
            || matches!(e.code(), Some("READONLY" | "MASTERDOWN" | "LOADING"));
        if moved {
            let mut primary = self.primary.lock().unwrap_or_else(|e| e.into_inner());
            if primary.as_ref().is_some_and(|(m, _)| *m == made) {
                *primary = None;
            }
        }
    }

    pub(super) async fn command(&self, cmd: &Cmd) -> RedisResult<Value> {
        let (made, mut conn) = self.connection().await?;
        let answer = conn.req_packed_command(cmd).await;
        if let Err(e) = &answer {
            self.failed(made, e);
        }
        answer
    }

    pub(super) async fn commands(
        &self,
        pipeline: &Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisResult<Vec<Value>> {
        let (made, mut conn) = self.connection().await?;
        let answer = conn.req_packed_commands(pipeline, offset, count).await;
        if let Err(e) = &answer {
            self.failed(made, e);
        }
        answer
    }
}
