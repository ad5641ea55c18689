//! The replay guard: each sealed round's `requestState` is taken once (design §5).
//!
//! A sealed state is bound to its principal, request and expiry, but nothing in the token can
//! stop the same retry from being sent twice (MCP 2026-07-28 § MRTR, Server Requirements 5: "do
//! not by themselves guarantee single-use"). A [`ReplayGuard`] remembers the rounds already
//! taken, for as long as their states live, so a retry sent again (by a client, or by whoever
//! captured it) is refused before the handler runs.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Remembers which sealed rounds were taken, so each is taken once.
///
/// The server asks it about every 2026-07-28 retry whose `requestState` opened (it is never
/// asked about a state that failed to open): `round` names the sealed round (its flow id, see
/// [`Cx::flow_id`](crate::Cx::flow_id), and its number), `expires_at` is when that state
/// expires, after which it is refused anyway, so the entry may be forgotten then; `now` is the
/// server's clock. The answer:
///
/// - `Ok(true)`: the first use; it is now recorded, and the request goes on.
/// - `Ok(false)`: taken before; the request is refused with the frozen `-32602`
///   (`Invalid or expired requestState`) and the handler does not run.
/// - `Err(_)`: the guard cannot tell (full, or its store unreachable); the request is refused
///   with `-32603` carrying the error's message, nothing runs and nothing is recorded, so the
///   client may try the same retry again later.
///
/// [`MemoryReplayGuard`] is the default (one process). A fleet behind a load balancer plugs in
/// one shared store (`SET round 1 NX PXAT expires_at` in Redis terms) with
/// [`Server::replay_guard`](crate::Server::replay_guard); it should keep entries a little past
/// `expires_at`, by the clock skew between instances.
///
/// ```
/// use rondo_mcp::state::{GuardError, ReplayGuard};
/// use std::collections::HashSet;
/// use std::sync::Mutex;
/// use std::time::SystemTime;
///
/// /// Never forgets (a sketch: a real store expires entries at `expires_at`).
/// #[derive(Default)]
/// struct Remember(Mutex<HashSet<String>>);
///
/// impl ReplayGuard for Remember {
///     async fn first_use(
///         &self,
///         round: &str,
///         _expires_at: SystemTime,
///         _now: SystemTime,
///     ) -> Result<bool, GuardError> {
///         Ok(self.0.lock().unwrap().insert(round.to_owned()))
///     }
///     async fn release(&self, round: &str) -> Result<(), GuardError> {
///         self.0.lock().unwrap().remove(round);
///         Ok(())
///     }
/// }
/// # let _ = rondo_mcp::Server::new(rondo_mcp::Router::new(rondo_mcp::ServerInfo::new("s", "1")))
/// #     .replay_guard(Remember::default());
/// ```
pub trait ReplayGuard: Send + Sync + 'static {
    /// Records the use of the sealed round `round`: `Ok(true)` the first time, `Ok(false)`
    /// after (see the trait's documentation).
    fn first_use(
        &self,
        round: &str,
        expires_at: SystemTime,
        now: SystemTime,
    ) -> impl Future<Output = Result<bool, GuardError>> + Send;

    /// Forgets that `round` was taken, so that it can be taken once more. The server calls
    /// it only when the request that took the round ended in a step-up: the tool's
    /// `cx.require_scopes` found the access token short of a scope and the client was told
    /// (`403 insufficient_scope`) to come back with a wider token. Its retry, the same
    /// `requestState` and answers under the new token, is then served instead of refused as a
    /// replay. Nothing is gained by replaying in between: the retry is bound to the same
    /// principal and carries the same answers. An error is logged; the step-up retry is then
    /// refused as a replay and the client starts the call again.
    fn release(&self, round: &str) -> impl Future<Output = Result<(), GuardError>> + Send;
}

/// Why a [`ReplayGuard`] cannot tell whether a round was taken: the retry is refused with
/// `-32603` and this message, and may be tried again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardError {
    message: String,
}

impl GuardError {
    /// An error with a message for the client (it must not leak anything secret).
    pub fn new(message: impl Into<String>) -> Self {
        GuardError {
            message: message.into(),
        }
    }
    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for GuardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for GuardError {}

/// The boxed future of a type-erased [`ReplayGuard`].
pub(crate) type GuardFuture<'a> =
    Pin<Box<dyn Future<Output = Result<bool, GuardError>> + Send + 'a>>;
/// The boxed future of [`ReplayGuard::release`], type-erased.
pub(crate) type ReleaseFuture<'a> =
    Pin<Box<dyn Future<Output = Result<(), GuardError>> + Send + 'a>>;

/// [`ReplayGuard`] behind a pointer: the configuration holds `Arc<dyn ErasedGuard>`.
pub(crate) trait ErasedGuard: Send + Sync {
    /// [`ReplayGuard::first_use`], with times in ms since the epoch.
    fn first_use_ms<'a>(&'a self, round: &'a str, expires_ms: u64, now_ms: u64) -> GuardFuture<'a>;
    /// [`ReplayGuard::release`].
    fn release_round<'a>(&'a self, round: &'a str) -> ReleaseFuture<'a>;
}

impl<G: ReplayGuard> ErasedGuard for G {
    fn first_use_ms<'a>(&'a self, round: &'a str, expires_ms: u64, now_ms: u64) -> GuardFuture<'a> {
        let at = |ms| UNIX_EPOCH + Duration::from_millis(ms);
        Box::pin(self.first_use(round, at(expires_ms), at(now_ms)))
    }
    fn release_round<'a>(&'a self, round: &'a str) -> ReleaseFuture<'a> {
        Box::pin(self.release(round))
    }
}

/// The default [`ReplayGuard`]: the rounds taken in this process, each kept until its state
/// expires, at most [`MemoryReplayGuard::DEFAULT_ROUNDS`] (or the number given to
/// [`MemoryReplayGuard::new`]) at once.
///
/// At the bound it refuses further retries with a [`GuardError`] saying so (`-32603`) until
/// entries expire (at most the state's lifetime, `Server::state_ttl`); it never forgets an
/// entry early, which would let that round be replayed, and never grows past the bound. First
/// rounds, and requests that ask nothing, are not affected.
///
/// It guards one process: instances of a fleet that share a key ring need a shared guard.
pub struct MemoryReplayGuard {
    max_rounds: usize,
    taken: Mutex<Taken>,
}

/// The rounds taken and not yet expired.
#[derive(Default)]
struct Taken {
    /// Round id to its state's expiry (ms since the epoch).
    expiry: HashMap<String, u64>,
    /// The same rounds, soonest expiry first, for forgetting them.
    queue: BinaryHeap<Reverse<(u64, String)>>,
}

impl Taken {
    /// Forgets the rounds whose states expired before `now_ms` (they are refused anyway).
    fn forget_expired(&mut self, now_ms: u64) {
        while let Some(Reverse((at, _))) = self.queue.peek() {
            if *at >= now_ms {
                break;
            }
            if let Some(Reverse((_, round))) = self.queue.pop() {
                self.expiry.remove(&round);
            }
        }
    }
}

impl MemoryReplayGuard {
    /// How many rounds the default guard remembers at once (about 10 MB at most).
    pub const DEFAULT_ROUNDS: usize = 65_536;

    /// A guard that remembers at most `max_rounds` rounds at once.
    pub fn new(max_rounds: usize) -> Self {
        MemoryReplayGuard {
            max_rounds,
            taken: Mutex::new(Taken::default()),
        }
    }

    /// How many rounds it remembers now.
    pub fn len(&self) -> usize {
        crate::sync::lock(&self.taken).expiry.len()
    }

    /// Whether it remembers none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn take(&self, round: &str, expires_ms: u64, now_ms: u64) -> Result<bool, GuardError> {
        let mut taken = crate::sync::lock(&self.taken);
        taken.forget_expired(now_ms);
        if taken.expiry.contains_key(round) {
            return Ok(false);
        }
        if taken.expiry.len() >= self.max_rounds {
            return Err(GuardError::new(format!(
                "The server is remembering {} answered rounds, its bound, to refuse replays; try again when older ones expire",
                self.max_rounds
            )));
        }
        taken.expiry.insert(round.to_owned(), expires_ms);
        taken.queue.push(Reverse((expires_ms, round.to_owned())));
        Ok(true)
    }
}

impl Default for MemoryReplayGuard {
    fn default() -> Self {
        MemoryReplayGuard::new(MemoryReplayGuard::DEFAULT_ROUNDS)
    }
}

impl fmt::Debug for MemoryReplayGuard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryReplayGuard")
            .field("max_rounds", &self.max_rounds)
            .field("len", &self.len())
            .finish()
    }
}

impl ReplayGuard for MemoryReplayGuard {
    async fn first_use(
        &self,
        round: &str,
        expires_at: SystemTime,
        now: SystemTime,
    ) -> Result<bool, GuardError> {
        self.take(round, ms(expires_at), ms(now))
    }
    async fn release(&self, round: &str) -> Result<(), GuardError> {
        // The queue entry stays until its expiry; popping it then finds nothing to forget, or
        // forgets the round retaken with the same expiry, which is when it expires anyway.
        crate::sync::lock(&self.taken).expiry.remove(round);
        Ok(())
    }
}

/// `at` in ms since the epoch (0 before it).
fn ms(at: SystemTime) -> u64 {
    at.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_round_is_taken_once_until_it_expires() {
        let g = MemoryReplayGuard::new(8);
        assert_eq!(g.take("f.1", 1_000, 0), Ok(true));
        assert_eq!(g.take("f.1", 1_000, 500), Ok(false));
        assert_eq!(g.take("f.2", 1_000, 500), Ok(true));
        // Still remembered at the expiry instant (the state still opens then) ...
        assert_eq!(g.take("f.1", 1_000, 1_000), Ok(false));
        // ... forgotten after it (the state is refused as expired anyway).
        assert_eq!(g.take("g.1", 5_000, 1_001), Ok(true));
        assert_eq!(g.len(), 1);
    }

    #[test]
    fn at_the_bound_new_rounds_are_refused_until_old_ones_expire() {
        let g = MemoryReplayGuard::new(2);
        assert_eq!(g.take("a.1", 100, 0), Ok(true));
        assert_eq!(g.take("b.1", 200, 0), Ok(true));
        let full = g.take("c.1", 300, 50).unwrap_err();
        assert!(full.message().contains("2 answered rounds"), "{full}");
        assert_eq!(g.len(), 2, "never grows past its bound");
        // A replay is still recognised at the bound.
        assert_eq!(g.take("a.1", 100, 50), Ok(false));
        assert_eq!(
            g.take("c.1", 300, 101),
            Ok(true),
            "a.1 expired, so c.1 fits"
        );
        assert_eq!(g.len(), 2);
    }

    #[tokio::test]
    async fn a_released_round_is_taken_once_more() {
        let g = MemoryReplayGuard::new(8);
        assert_eq!(g.take("f.1", 1_000, 0), Ok(true));
        g.release("f.1").await.unwrap();
        assert_eq!(g.take("f.1", 1_000, 10), Ok(true));
        assert_eq!(g.take("f.1", 1_000, 20), Ok(false));
        assert_eq!(g.len(), 1);
    }
}
