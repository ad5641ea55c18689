//! The effect ledger: what [`Cx::once`](crate::Cx::once) records, so that an effect keyed by a
//! flow happens once across every instance that shares the ledger (design §19.1).
//!
//! The replay guard refuses a round sent again with other answers and serves it sent again
//! unchanged; the ledger keeps the effect once then, and still holds where the guard cannot
//! (it forgot the round, it is not shared, or it is off): the outcome of an effect is recorded
//! under its flow and name, and a later run of the same flow finds the outcome instead of doing
//! the effect again.

use std::collections::{BinaryHeap, HashMap};
use std::fmt;
use std::future::Future;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::sync::BoxFuture;

/// How long [`Cx::once`](crate::Cx::once) waits for another request of the same flow that is
/// running the effect, before it answers
/// [`OnceError::Running`](crate::OnceError::Running).
pub const ONCE_WAIT: Duration = Duration::from_secs(5);
/// The largest outcome [`Cx::once`](crate::Cx::once) records, as JSON. A larger one is returned
/// but not recorded, and the effect is not run again (a repeat answers
/// [`OnceError::Running`](crate::OnceError::Running)).
pub const MAX_OUTCOME_BYTES: usize = 64 * 1024;

/// What [`Ledger::claim`] found under a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// Nothing: the key is now claimed by the caller, which runs the effect and then
    /// [`record`](Ledger::record)s its outcome or [`release`](Ledger::release)s the claim.
    First,
    /// Claimed by a run that has not recorded an outcome: another request of the same flow
    /// is running the effect now, or its instance stopped while it ran (then the outcome is
    /// unknown, and the claim stays until it expires: the effect is never run twice).
    Running,
    /// The recorded outcome (the JSON the first run stored).
    Done(String),
}

/// Records the outcome of effects, each under a key naming its flow and the effect, so each
/// effect happens once (see [`Cx::once`](crate::Cx::once)).
///
/// A claim is made by a *claimant*, a random id of the one run that claims: only that run
/// records the outcome or gives the claim back, so a claim that reached the store after its
/// run stopped waiting for it (the store stalled) can be given back by that run once the store
/// answers again, and is never taken for another's.
///
/// [`MemoryLedger`] is the default (one process). A fleet shares one store with
/// [`Server::shared_state`](crate::Server::shared_state) (`RedisLedger`, feature `redis`). A
/// store of your own implements each step atomically per key:
///
/// ```
/// use rondo_mcp::state::{Claim, Ledger, LedgerError};
/// use std::collections::HashMap;
/// use std::sync::Mutex;
/// use std::time::SystemTime;
///
/// /// Key to `Err(claimant)` while claimed, `Ok(outcome)` once recorded. Never forgets (a
/// /// sketch: a real store expires entries at `expires_at`, and `extend` moves that later).
/// #[derive(Default)]
/// struct Book(Mutex<HashMap<String, Result<String, String>>>);
///
/// impl Ledger for Book {
///     async fn claim(
///         &self,
///         key: &str,
///         claimant: &str,
///         _expires_at: SystemTime,
///         _now: SystemTime,
///     ) -> Result<Claim, LedgerError> {
///         let mut book = self.0.lock().unwrap();
///         Ok(match book.get(key) {
///             None => {
///                 book.insert(key.to_owned(), Err(claimant.to_owned()));
///                 Claim::First
///             }
///             Some(Err(_)) => Claim::Running,
///             Some(Ok(done)) => Claim::Done(done.clone()),
///         })
///     }
///     async fn record(&self, key: &str, claimant: &str, outcome: &str) -> Result<(), LedgerError> {
///         let mut book = self.0.lock().unwrap();
///         if book.get(key) == Some(&Err(claimant.to_owned())) {
///             book.insert(key.to_owned(), Ok(outcome.to_owned()));
///         }
///         Ok(())
///     }
///     async fn release(&self, key: &str, claimant: &str) -> Result<(), LedgerError> {
///         let mut book = self.0.lock().unwrap();
///         if book.get(key) == Some(&Err(claimant.to_owned())) {
///             book.remove(key);
///         }
///         Ok(())
///     }
///     async fn extend(&self, _key: &str, _until: SystemTime) -> Result<(), LedgerError> {
///         Ok(()) // never forgets
///     }
/// }
/// ```
pub trait Ledger: Send + Sync + 'static {
    /// Claims `key` for `claimant` if nothing is under it (keeping the claim, and later the
    /// outcome, until `expires_at`), else tells what is there. `now` is the server's clock.
    fn claim(
        &self,
        key: &str,
        claimant: &str,
        expires_at: SystemTime,
        now: SystemTime,
    ) -> impl Future<Output = Result<Claim, LedgerError>> + Send;

    /// Records `outcome` under `key` when `claimant` holds its claim; it replaces the claim
    /// and keeps its expiry.
    fn record(
        &self,
        key: &str,
        claimant: &str,
        outcome: &str,
    ) -> impl Future<Output = Result<(), LedgerError>> + Send;

    /// Gives up `claimant`'s claim on `key` without an outcome: the effect failed before doing
    /// anything, or was never started, and may be tried again. Anything else under `key` (an
    /// outcome, another's claim) stays.
    fn release(
        &self,
        key: &str,
        claimant: &str,
    ) -> impl Future<Output = Result<(), LedgerError>> + Send;

    /// Keeps what is under `key` (a claim or an outcome) at least until `until`; never
    /// shortens its life. [`Cx::once`](crate::Cx::once) calls it for each effect of a flow
    /// before a round seals the flow's next state, so that the record outlives every round
    /// that can still reach it.
    fn extend(
        &self,
        key: &str,
        until: SystemTime,
    ) -> impl Future<Output = Result<(), LedgerError>> + Send;
}

/// Why a [`Ledger`] cannot answer (full, or its store unreachable). [`Cx::once`](crate::Cx::once)
/// then does nothing and reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerError {
    message: String,
}

impl LedgerError {
    /// An error with a message for the client (it must not leak anything secret).
    pub fn new(message: impl Into<String>) -> Self {
        LedgerError {
            message: message.into(),
        }
    }
    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for LedgerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LedgerError {}

/// [`Ledger`] behind a pointer: the configuration holds `Arc<dyn ErasedLedger>`.
pub(crate) trait ErasedLedger: Send + Sync {
    fn dyn_claim<'a>(
        &'a self,
        key: &'a str,
        claimant: &'a str,
        expires_at: SystemTime,
        now: SystemTime,
    ) -> BoxFuture<'a, Result<Claim, LedgerError>>;
    fn dyn_record<'a>(
        &'a self,
        key: &'a str,
        claimant: &'a str,
        outcome: &'a str,
    ) -> BoxFuture<'a, Result<(), LedgerError>>;
    fn dyn_release<'a>(
        &'a self,
        key: &'a str,
        claimant: &'a str,
    ) -> BoxFuture<'a, Result<(), LedgerError>>;
    fn dyn_extend<'a>(
        &'a self,
        key: &'a str,
        until: SystemTime,
    ) -> BoxFuture<'a, Result<(), LedgerError>>;
}

impl<L: Ledger> ErasedLedger for L {
    fn dyn_claim<'a>(
        &'a self,
        key: &'a str,
        claimant: &'a str,
        expires_at: SystemTime,
        now: SystemTime,
    ) -> BoxFuture<'a, Result<Claim, LedgerError>> {
        Box::pin(self.claim(key, claimant, expires_at, now))
    }
    fn dyn_record<'a>(
        &'a self,
        key: &'a str,
        claimant: &'a str,
        outcome: &'a str,
    ) -> BoxFuture<'a, Result<(), LedgerError>> {
        Box::pin(self.record(key, claimant, outcome))
    }
    fn dyn_release<'a>(
        &'a self,
        key: &'a str,
        claimant: &'a str,
    ) -> BoxFuture<'a, Result<(), LedgerError>> {
        Box::pin(self.release(key, claimant))
    }
    fn dyn_extend<'a>(
        &'a self,
        key: &'a str,
        until: SystemTime,
    ) -> BoxFuture<'a, Result<(), LedgerError>> {
        Box::pin(self.extend(key, until))
    }
}

/// The default [`Ledger`]: the effects of this process, each kept until it expires, at most
/// [`MemoryLedger::DEFAULT_ENTRIES`] (or the number given to [`MemoryLedger::new`]) at once.
///
/// At the bound a new claim is refused with a [`LedgerError`] saying so, and the effect is not
/// run, until entries expire; an entry is never forgotten early, which would let its effect run
/// again. It serves one process: instances of a fleet need a shared ledger.
pub struct MemoryLedger {
    max_entries: usize,
    book: Mutex<Book>,
}

#[derive(Default)]
struct Book {
    /// Key to its expiry in ms since the epoch, and what is there.
    entries: HashMap<String, (u64, Entry)>,
    /// The same keys, soonest expiry first (a key extended is queued again; a stale queue
    /// entry, whose time is not the key's expiry, is skipped).
    queue: BinaryHeap<std::cmp::Reverse<(u64, String)>>,
}

/// What a key holds.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    /// Claimed by this claimant, no outcome yet.
    Claimed(String),
    /// The recorded outcome.
    Done(String),
}

impl MemoryLedger {
    /// How many entries the default ledger holds at once.
    pub const DEFAULT_ENTRIES: usize = 65_536;

    /// A ledger of at most `max_entries` entries at once.
    pub fn new(max_entries: usize) -> Self {
        MemoryLedger {
            max_entries,
            book: Mutex::new(Book::default()),
        }
    }

    /// How many entries it holds now (expired ones included until the next claim).
    pub fn len(&self) -> usize {
        crate::sync::lock(&self.book).entries.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn take(
        &self,
        key: &str,
        claimant: &str,
        expires_ms: u64,
        now_ms: u64,
    ) -> Result<Claim, LedgerError> {
        let mut book = crate::sync::lock(&self.book);
        while let Some(std::cmp::Reverse((at, _))) = book.queue.peek() {
            if *at >= now_ms {
                break;
            }
            if let Some(std::cmp::Reverse((at, key))) = book.queue.pop()
                && book.entries.get(&key).is_some_and(|(e, _)| *e == at)
            {
                book.entries.remove(&key);
            }
        }
        match book.entries.get(key) {
            Some((_, Entry::Done(done))) => return Ok(Claim::Done(done.clone())),
            Some((_, Entry::Claimed(_))) => return Ok(Claim::Running),
            None => {}
        }
        if book.entries.len() >= self.max_entries {
            return Err(LedgerError::new(format!(
                "The server is keeping {} effects, its bound, to run each once; nothing was done, try again when older ones expire",
                self.max_entries
            )));
        }
        book.entries.insert(
            key.to_owned(),
            (expires_ms, Entry::Claimed(claimant.to_owned())),
        );
        book.queue
            .push(std::cmp::Reverse((expires_ms, key.to_owned())));
        Ok(Claim::First)
    }

    /// Applies `change` to the entry under `key` when `claimant` holds its claim.
    fn if_claimed_by(&self, key: &str, claimant: &str, change: impl FnOnce(&mut Book)) {
        let mut book = crate::sync::lock(&self.book);
        if book
            .entries
            .get(key)
            .is_some_and(|(_, e)| matches!(e, Entry::Claimed(c) if c == claimant))
        {
            change(&mut book);
        }
    }

    fn extend_to(&self, key: &str, until_ms: u64) {
        let mut book = crate::sync::lock(&self.book);
        let Some(entry) = book.entries.get_mut(key) else {
            return;
        };
        if entry.0 < until_ms {
            entry.0 = until_ms;
            book.queue
                .push(std::cmp::Reverse((until_ms, key.to_owned())));
        }
    }
}

impl Default for MemoryLedger {
    fn default() -> Self {
        MemoryLedger::new(MemoryLedger::DEFAULT_ENTRIES)
    }
}

impl fmt::Debug for MemoryLedger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryLedger")
            .field("max_entries", &self.max_entries)
            .field("len", &self.len())
            .finish()
    }
}

impl Ledger for MemoryLedger {
    async fn claim(
        &self,
        key: &str,
        claimant: &str,
        expires_at: SystemTime,
        now: SystemTime,
    ) -> Result<Claim, LedgerError> {
        self.take(key, claimant, ms(expires_at), ms(now))
    }
    async fn record(&self, key: &str, claimant: &str, outcome: &str) -> Result<(), LedgerError> {
        self.if_claimed_by(key, claimant, |book| {
            if let Some(entry) = book.entries.get_mut(key) {
                entry.1 = Entry::Done(outcome.to_owned());
            }
        });
        Ok(())
    }
    async fn release(&self, key: &str, claimant: &str) -> Result<(), LedgerError> {
        self.if_claimed_by(key, claimant, |book| {
            book.entries.remove(key);
        });
        Ok(())
    }
    async fn extend(&self, key: &str, until: SystemTime) -> Result<(), LedgerError> {
        self.extend_to(key, ms(until));
        Ok(())
    }
}

/// `at` in ms since the epoch (0 before it).
fn ms(at: SystemTime) -> u64 {
    at.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// `ms` since the epoch as a time.
pub(crate) fn at_ms(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_claimed_once_then_running_then_done_until_it_expires() {
        let l = MemoryLedger::new(8);
        assert_eq!(l.take("f/order", "a", 1_000, 0), Ok(Claim::First));
        assert_eq!(l.take("f/order", "b", 1_000, 10), Ok(Claim::Running));
        ready(l.record("f/order", "b", "{\"n\":2}")).unwrap();
        assert_eq!(
            l.take("f/order", "c", 1_000, 10),
            Ok(Claim::Running),
            "b holds no claim"
        );
        ready(l.record("f/order", "a", "{\"n\":1}")).unwrap();
        assert_eq!(
            l.take("f/order", "c", 1_000, 20),
            Ok(Claim::Done("{\"n\":1}".into()))
        );
        // Still kept at the expiry instant, forgotten after it.
        assert_eq!(
            l.take("f/order", "c", 9_000, 1_000),
            Ok(Claim::Done("{\"n\":1}".into()))
        );
        assert_eq!(l.take("g/order", "c", 9_000, 1_001), Ok(Claim::First));
        assert_eq!(l.len(), 1);
    }

    #[test]
    fn only_the_claimant_releases_and_an_outcome_is_never_released() {
        let l = MemoryLedger::new(8);
        assert_eq!(l.take("a", "x", 1_000, 0), Ok(Claim::First));
        ready(l.release("a", "y")).unwrap();
        assert_eq!(l.take("a", "y", 1_000, 0), Ok(Claim::Running), "not y's");
        ready(l.release("a", "x")).unwrap();
        assert_eq!(l.take("a", "y", 1_000, 0), Ok(Claim::First));
        ready(l.record("a", "y", "1")).unwrap();
        ready(l.release("a", "y")).unwrap();
        assert_eq!(l.take("a", "z", 1_000, 0), Ok(Claim::Done("1".into())));
    }

    #[test]
    fn an_extended_entry_outlives_its_first_expiry_and_is_never_shortened() {
        let l = MemoryLedger::new(8);
        assert_eq!(l.take("f/pay", "x", 1_000, 0), Ok(Claim::First));
        ready(l.record("f/pay", "x", "\"paid\"")).unwrap();
        ready(l.extend("f/pay", at_ms(5_000))).unwrap();
        ready(l.extend("f/pay", at_ms(2_000))).unwrap();
        // The first queue entry (1 000) passes without forgetting it.
        assert_eq!(
            l.take("f/pay", "y", 9_000, 4_000),
            Ok(Claim::Done("\"paid\"".into()))
        );
        assert_eq!(l.take("f/pay", "y", 9_000, 5_001), Ok(Claim::First));
        // Extending what is not there does nothing.
        ready(l.extend("nothing", at_ms(9_000))).unwrap();
        assert_eq!(l.len(), 1);
    }

    #[test]
    fn at_the_bound_new_claims_are_refused_and_nothing_is_forgotten_early() {
        let l = MemoryLedger::new(2);
        assert_eq!(l.take("a", "x", 100, 0), Ok(Claim::First));
        assert_eq!(l.take("b", "x", 200, 0), Ok(Claim::First));
        let full = l.take("c", "x", 300, 50).unwrap_err();
        assert!(full.message().contains("2 effects"), "{full}");
        assert_eq!(
            l.take("a", "y", 100, 50),
            Ok(Claim::Running),
            "kept at the bound"
        );
        assert_eq!(l.take("c", "x", 300, 101), Ok(Claim::First), "a expired");
        assert_eq!(l.len(), 2);
    }

    /// Runs a ready future (the memory ledger's never wait).
    fn ready<T>(f: impl Future<Output = T>) -> T {
        let mut f = std::pin::pin!(f);
        let waker = std::task::Waker::noop();
        match f.as_mut().poll(&mut std::task::Context::from_waker(waker)) {
            std::task::Poll::Ready(t) => t,
            std::task::Poll::Pending => panic!("the memory ledger never waits"),
        }
    }
}
