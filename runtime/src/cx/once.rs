//! [`Cx::once`]: an effect done once per flow, across every instance that shares the ledger.

use super::Cx;
use crate::protocol::Error;
use crate::state::{Claim, LedgerError, MAX_OUTCOME_BYTES, ONCE_WAIT};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// How long past the state lifetime an outcome is kept: the clock skew allowed between the
/// instances of a fleet.
const SKEW: Duration = Duration::from_secs(30);
/// How often a waiting [`Cx::once`] looks again.
const POLL: Duration = Duration::from_millis(50);

/// Why [`Cx::once`] did not give the effect's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OnceError<E> {
    /// The effect ran and failed. Nothing is recorded, so a later run of the flow tries it again
    /// (the effect's `Err` must mean that it did nothing).
    Failed(E),
    /// Another request of this flow is running the effect (it did not finish within
    /// [`ONCE_WAIT`](crate::state::ONCE_WAIT)), or the request that ran it ended before recording its outcome (its
    /// instance stopped, the request was cancelled, the ledger went away): whether the effect
    /// happened is unknown here, and it is not run a second time.
    Running,
    /// The ledger cannot tell (unreachable, or full): the effect was not run.
    Unavailable(LedgerError),
}

impl<E: fmt::Display> fmt::Display for OnceError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OnceError::Failed(e) => e.fmt(f),
            OnceError::Running => f.write_str(
                "This step is being done by another request of the same call, or one was interrupted while doing it; it is not done twice. Check its outcome, and call again to start over if it did not happen.",
            ),
            OnceError::Unavailable(e) => write!(f, "Nothing was done: {e}. Try again later."),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for OnceError<E> {}

/// Lets a tool that returns `Result<_, String>` use `?` on [`Cx::once`].
impl<E: fmt::Display> From<OnceError<E>> for String {
    fn from(e: OnceError<E>) -> String {
        e.to_string()
    }
}

/// Marks a request as inside [`Cx::once`] while it lives (see [`Cx::shielded`]).
struct Shield<'a>(&'a AtomicUsize);

impl<'a> Shield<'a> {
    fn new(count: &'a AtomicUsize) -> Self {
        count.fetch_add(1, Ordering::SeqCst);
        Shield(count)
    }
}

impl Drop for Shield<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Cx {
    /// Whether the request is inside [`Cx::once`], between its claim and its record: then a
    /// cancellation waits for it.
    pub(crate) fn shielded(&self) -> bool {
        self.shield.load(Ordering::SeqCst) > 0
    }

    /// Does `effect` once for this call's flow ([`Cx::flow_id`]), under the name `name`, and
    /// returns its outcome: the first run of the flow that gets here runs `effect` and records
    /// its `Ok` value in the server's [`Ledger`](crate::state::Ledger); every later run (the
    /// next round, a retry sent twice, a replay that reached another instance of the fleet,
    /// whose replay guard forgot the round) gets the recorded value back and does nothing.
    ///
    /// This is how a tool makes its effect (an order, a booking, a payment) happen once. The
    /// ledger is this process's memory by default; a fleet shares one
    /// ([`Server::shared_state`](crate::Server::shared_state)). Record the whole decision, not
    /// only the effect, when the decision is the user's: the outcome of a declined order
    /// recorded as "declined" means that the same round replayed with `accept` finds
    /// "declined".
    ///
    /// ```
    /// use rondo_mcp::prelude::*;
    ///
    /// async fn order(cx: &Cx, isbn: &str) -> Result<String, String> {
    ///     let placed = cx
    ///         .once("order", async { place_order(isbn).await })
    ///         .await?; // `OnceError` into the tool's error text
    ///     Ok(format!("Ordered: order {placed}"))
    /// }
    /// # async fn place_order(_: &str) -> Result<u64, String> { Ok(1) }
    /// ```
    ///
    /// At most once: when the request that ran `effect` ended before recording (its instance
    /// was killed), later runs answer [`OnceError::Running`] until the entry expires, never
    /// running it again. A request cancelled (the client gave up, its connection closed) while
    /// inside `once` is not dropped there: it runs on to the record, so a client that timed out
    /// and sends the round again gets the outcome. An `Err` from `effect` is not recorded: it must mean
    /// nothing was done. The outcome is kept as JSON, at most
    /// [`MAX_OUTCOME_BYTES`](crate::state::MAX_OUTCOME_BYTES).
    ///
    /// For the whole flow: the entry is kept the state lifetime plus 30 s from the claim, and
    /// every later round of the flow that seals a next state (asks again, or waits on a page)
    /// first renews it to outlive that state, so a round of the flow that can still arrive
    /// always finds the outcome, however long the user spends on a page. A round whose renewal
    /// fails is refused with `-32603` ("try again"), the same round sent again is served.
    pub async fn once<T, E, F>(&self, name: &str, effect: F) -> Result<T, OnceError<E>>
    where
        T: Serialize + DeserializeOwned,
        F: Future<Output = Result<T, E>>,
    {
        // From the claim to the record, a cancelled request is not dropped: a client that gave
        // up (its timeout, a closed connection) must not leave a claim that nobody records.
        let _shield = Shield::new(&self.shield);
        let key = format!("{}/{name}", self.flow_id());
        let ledger = &self.req.config.ledger;
        let clock = &self.req.config.clock;
        let expires = self.once_outlives();
        // This run's claim, and no other's: only it records or releases what it claimed.
        let claimant = crate::state::random_id();
        let waited = tokio::time::Instant::now();
        loop {
            let now = crate::state::at_ms(clock.now_ms());
            let found = ledger
                .dyn_claim(&key, &claimant, crate::state::at_ms(expires), now)
                .await
                .map_err(OnceError::Unavailable)?;
            // From now on the ledger holds something for this flow: rounds sealed later keep it.
            self.asks().once.insert(name.to_owned());
            match found {
                Claim::First => break,
                Claim::Done(json) => {
                    return serde_json::from_str(&json).map_err(|e| {
                        tracing::warn!(key, error = %e, "a recorded outcome does not read as the effect's type");
                        OnceError::Unavailable(LedgerError::new(
                            "the recorded outcome of this step does not read",
                        ))
                    });
                }
                Claim::Running if waited.elapsed() < ONCE_WAIT => tokio::time::sleep(POLL).await,
                Claim::Running => return Err(OnceError::Running),
            }
        }
        let value = match effect.await {
            Ok(value) => value,
            Err(e) => {
                if let Err(why) = ledger.dyn_release(&key, &claimant).await {
                    // The claim stays until it expires: later runs answer `Running`.
                    tracing::warn!(key, error = %why, "the ledger could not release a failed effect's claim");
                }
                return Err(OnceError::Failed(e));
            }
        };
        match serde_json::to_string(&value) {
            Ok(json) if json.len() <= MAX_OUTCOME_BYTES => {
                if let Err(why) = ledger.dyn_record(&key, &claimant, &json).await {
                    tracing::warn!(key, error = %why, "the ledger could not record an effect's outcome; repeats of it will answer that it is running");
                }
            }
            Ok(json) => {
                tracing::warn!(
                    key,
                    bytes = json.len(),
                    max = MAX_OUTCOME_BYTES,
                    "an effect's outcome is too large to record"
                );
            }
            Err(e) => {
                tracing::warn!(key, error = %e, "an effect's outcome does not serialise; it is not recorded");
            }
        }
        Ok(value)
    }

    /// When what [`Cx::once`] records now may be forgotten (ms since the epoch): the state
    /// lifetime plus the clock skew allowed between instances, from now. No round of the flow
    /// sealed before now can arrive after that.
    fn once_outlives(&self) -> u64 {
        let keep =
            u64::try_from((self.req.config.state_ttl + SKEW).as_millis()).unwrap_or(u64::MAX);
        self.req.config.clock.now_ms().saturating_add(keep)
    }

    /// Whether [`Cx::keep_once`] has anything to renew.
    pub(crate) fn keeps_once(&self) -> bool {
        self.req.revision.is_modern() && !self.asks().once.is_empty()
    }

    /// Before this round seals the flow's next state: keeps every effect the flow recorded
    /// with [`Cx::once`] in the ledger until that state has expired, plus the skew (design
    /// §19.1). A ledger that cannot answer refuses the round (`-32603`): handing out a state
    /// that outlives the record would let a later round run the effect again. Nothing is
    /// lost: the same round sent again is served again (the replay guard's `Again`).
    pub(crate) async fn keep_once(&self) -> Result<(), Error> {
        let names: Vec<String> = self.asks().once.iter().cloned().collect();
        if names.is_empty() || !self.req.revision.is_modern() {
            return Ok(());
        }
        let until = crate::state::at_ms(self.once_outlives());
        for name in names {
            let key = format!("{}/{name}", self.flow_id());
            if let Err(e) = self.req.config.ledger.dyn_extend(&key, until).await {
                tracing::warn!(key, error = %e, "the ledger could not keep an effect for the flow's next round");
                return Err(Error::internal(e.message().to_owned()));
            }
        }
        Ok(())
    }
}
