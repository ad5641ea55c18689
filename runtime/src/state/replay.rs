//! The replay guard: each sealed round's `requestState` is taken once, for one set of answers
//! (design §5, §19.2).
//!
//! A sealed state is bound to its principal, request and expiry, but nothing in the token can
//! stop the same retry from being sent twice (MCP 2026-07-28 § MRTR, Server Requirements 5: "do
//! not by themselves guarantee single-use"). A [`ReplayGuard`] remembers, for as long as their
//! states live, which rounds were taken and by what request: the round is the idempotency key,
//! and a fingerprint of the request (its state and its answers) is what the key was used for.
//! The same round sent again with other answers (a decline turned into an accept, by a client
//! or by whoever captured it) is refused before the handler runs; the same round sent again
//! unchanged (a client that lost its answer, or was told to try again) is served again.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::protocol::JsonObject;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// What the replay guard found for a round: see [`ReplayGuard::take`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundUse {
    /// Nobody took the round before: it is now taken by this request, under its fingerprint.
    First,
    /// The same round was taken before under the same fingerprint (the same `requestState`
    /// and the same answers): a resend after a lost or refused answer. It is served again;
    /// what the tool does once is [`Cx::once`](crate::Cx::once)'s to keep once.
    Again,
    /// The round was taken under another fingerprint (other answers to its questions, or
    /// another state sealed for it): refused with the frozen `-32602`.
    Other,
}

/// Takes each sealed round once, for one set of answers: the idempotency key of a round.
///
/// The server asks it about every 2026-07-28 retry whose `requestState` opened (it is never
/// asked about a state that failed to open), before the handler runs. `round` names the sealed
/// round (its flow id, see [`Cx::flow_id`](crate::Cx::flow_id), and its number);
/// `fingerprint` is a digest of the request's `requestState` and of its answers to the
/// round's questions; `expires_at` is when that state expires, after which it is refused
/// anyway, so the entry may be forgotten then; `now` is the server's clock. The answer:
///
/// - `Ok(RoundUse::First)`: nothing was recorded for `round`; `fingerprint` is now, and the
///   request goes on.
/// - `Ok(RoundUse::Again)`: `fingerprint` was recorded for `round` before: the same round sent
///   again (a client that lost its answer, or was told to try again after the guard's store
///   took the round but answered too late). The request goes on.
/// - `Ok(RoundUse::Other)`: another fingerprint was recorded: the request is refused with the
///   frozen `-32602` (`Invalid or expired requestState`) and the handler does not run. This
///   is what stops "decline, then send the same round again with accept".
/// - `Err(_)`: the guard cannot tell (full, or its store unreachable); the request is refused
///   with `-32603` carrying the error's message and nothing runs. Whatever the store did with
///   the request (it may have recorded it after the server stopped waiting), the same round
///   sent again is `First` or `Again`: the client may try it again.
///
/// Recording must be atomic per round: the first fingerprint stays. [`MemoryReplayGuard`] is
/// the default (one process). A fleet behind a load balancer plugs in one shared store
/// (`SET round fingerprint NX GET PXAT expires_at` in Redis terms) with
/// [`Server::replay_guard`](crate::Server::replay_guard); it should keep entries a little past
/// `expires_at`, by the clock skew between instances.
///
/// ```
/// use rondo_mcp::state::{GuardError, ReplayGuard, RoundUse};
/// use std::collections::HashMap;
/// use std::sync::Mutex;
/// use std::time::SystemTime;
///
/// /// Never forgets (a sketch: a real store expires entries at `expires_at`).
/// #[derive(Default)]
/// struct Remember(Mutex<HashMap<String, String>>);
///
/// impl ReplayGuard for Remember {
///     async fn take(
///         &self,
///         round: &str,
///         fingerprint: &str,
///         _expires_at: SystemTime,
///         _now: SystemTime,
///     ) -> Result<RoundUse, GuardError> {
///         let mut taken = self.0.lock().unwrap();
///         Ok(match taken.get(round) {
///             None => {
///                 taken.insert(round.to_owned(), fingerprint.to_owned());
///                 RoundUse::First
///             }
///             Some(f) if f == fingerprint => RoundUse::Again,
///             Some(_) => RoundUse::Other,
///         })
///     }
/// }
/// # let _ = rondo_mcp::Server::new(rondo_mcp::Router::new(rondo_mcp::ServerInfo::new("s", "1")))
/// #     .replay_guard(Remember::default());
/// ```
pub trait ReplayGuard: Send + Sync + 'static {
    /// Takes the sealed round `round` for the request whose fingerprint is `fingerprint` (see
    /// the trait's documentation).
    fn take(
        &self,
        round: &str,
        fingerprint: &str,
        expires_at: SystemTime,
        now: SystemTime,
    ) -> impl Future<Output = Result<RoundUse, GuardError>> + Send;
}

/// The fingerprint of a round's request for the replay guard: SHA-256 over its sealed
/// `requestState` and the canonical JSON of its answers to the round's questions (`answers`,
/// by wire key; answers to keys the round did not ask are ignored, as the handler ignores
/// them), 128 bits in hex.
pub(crate) fn fingerprint(token: &str, answers: &JsonObject) -> String {
    let mut hash = Sha256::new();
    hash.update(token.as_bytes());
    hash.update([0]);
    hash.update(crate::canonical::to_canonical(&Value::Object(answers.clone())).as_bytes());
    let digest: [u8; 32] = hash.finalize().into();
    crate::canonical::hex(&digest[..16])
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
    Pin<Box<dyn Future<Output = Result<RoundUse, GuardError>> + Send + 'a>>;

/// [`ReplayGuard`] behind a pointer: the configuration holds `Arc<dyn ErasedGuard>`.
pub(crate) trait ErasedGuard: Send + Sync {
    /// [`ReplayGuard::take`], with times in ms since the epoch.
    fn take_ms<'a>(
        &'a self,
        round: &'a str,
        fingerprint: &'a str,
        expires_ms: u64,
        now_ms: u64,
    ) -> GuardFuture<'a>;
}

impl<G: ReplayGuard> ErasedGuard for G {
    fn take_ms<'a>(
        &'a self,
        round: &'a str,
        fingerprint: &'a str,
        expires_ms: u64,
        now_ms: u64,
    ) -> GuardFuture<'a> {
        let at = |ms| UNIX_EPOCH + Duration::from_millis(ms);
        Box::pin(self.take(round, fingerprint, at(expires_ms), at(now_ms)))
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
    /// Round id to its state's expiry (ms since the epoch) and the fingerprint that took it.
    expiry: HashMap<String, (u64, String)>,
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
    /// How many rounds the default guard remembers at once (about 13 MB at most).
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

    fn take_now(
        &self,
        round: &str,
        fingerprint: &str,
        expires_ms: u64,
        now_ms: u64,
    ) -> Result<RoundUse, GuardError> {
        let mut taken = crate::sync::lock(&self.taken);
        taken.forget_expired(now_ms);
        if let Some((_, by)) = taken.expiry.get(round) {
            return Ok(if by == fingerprint {
                RoundUse::Again
            } else {
                RoundUse::Other
            });
        }
        if taken.expiry.len() >= self.max_rounds {
            return Err(GuardError::new(format!(
                "The server is remembering {} answered rounds, its bound, to refuse replays; try again when older ones expire",
                self.max_rounds
            )));
        }
        taken
            .expiry
            .insert(round.to_owned(), (expires_ms, fingerprint.to_owned()));
        taken.queue.push(Reverse((expires_ms, round.to_owned())));
        Ok(RoundUse::First)
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
    async fn take(
        &self,
        round: &str,
        fingerprint: &str,
        expires_at: SystemTime,
        now: SystemTime,
    ) -> Result<RoundUse, GuardError> {
        self.take_now(round, fingerprint, ms(expires_at), ms(now))
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
    fn each_round_is_taken_once_per_fingerprint_until_it_expires() {
        let g = MemoryReplayGuard::new(8);
        assert_eq!(g.take_now("f.1", "a", 1_000, 0), Ok(RoundUse::First));
        assert_eq!(g.take_now("f.1", "a", 1_000, 500), Ok(RoundUse::Again));
        assert_eq!(g.take_now("f.1", "b", 1_000, 500), Ok(RoundUse::Other));
        assert_eq!(g.take_now("f.2", "b", 1_000, 500), Ok(RoundUse::First));
        // Still remembered at the expiry instant (the state still opens then) ...
        assert_eq!(g.take_now("f.1", "b", 1_000, 1_000), Ok(RoundUse::Other));
        // ... forgotten after it (the state is refused as expired anyway).
        assert_eq!(g.take_now("g.1", "a", 5_000, 1_001), Ok(RoundUse::First));
        assert_eq!(g.len(), 1);
    }

    #[test]
    fn at_the_bound_new_rounds_are_refused_until_old_ones_expire() {
        let g = MemoryReplayGuard::new(2);
        assert_eq!(g.take_now("a.1", "x", 100, 0), Ok(RoundUse::First));
        assert_eq!(g.take_now("b.1", "x", 200, 0), Ok(RoundUse::First));
        let full = g.take_now("c.1", "x", 300, 50).unwrap_err();
        assert!(full.message().contains("2 answered rounds"), "{full}");
        assert_eq!(g.len(), 2, "never grows past its bound");
        // A replay is still recognised at the bound, and so is a resend.
        assert_eq!(g.take_now("a.1", "y", 100, 50), Ok(RoundUse::Other));
        assert_eq!(g.take_now("a.1", "x", 100, 50), Ok(RoundUse::Again));
        assert_eq!(
            g.take_now("c.1", "x", 300, 101),
            Ok(RoundUse::First),
            "a.1 expired, so c.1 fits"
        );
        assert_eq!(g.len(), 2);
    }

    #[test]
    fn a_fingerprint_is_the_state_and_the_answers_in_any_key_order() {
        let a: JsonObject =
            serde_json::from_str(r#"{"q": {"action": "accept", "content": {"x": 1, "y": 2}}}"#)
                .unwrap();
        let b: JsonObject =
            serde_json::from_str(r#"{"q": {"content": {"y": 2, "x": 1}, "action": "accept"}}"#)
                .unwrap();
        let no: JsonObject = serde_json::from_str(r#"{"q": {"action": "decline"}}"#).unwrap();
        assert_eq!(fingerprint("t", &a), fingerprint("t", &b));
        assert_eq!(fingerprint("t", &a).len(), 32);
        assert_ne!(fingerprint("t", &a), fingerprint("t", &no));
        assert_ne!(fingerprint("t", &a), fingerprint("u", &a));
    }
}
