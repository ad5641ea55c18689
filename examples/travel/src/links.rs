//! Payment links: the URL `pay_for_trip` sends the user to is `/pay/{token}`, where the token
//! is unguessable, single use, expires, and is bound to the call's flow, to the booking, to this
//! process's store and, when the call had one, to its principal.
//!
//! **Format.** The token is sealed with the server's state key ring (the ring that seals
//! `requestState`: XChaCha20-Poly1305, base64url), so it cannot be forged or altered, and
//! whatever it names is unreadable in the URL: the booking id, the flow id, the store's id, the
//! expiry and, with a principal, a digest of its issuer and subject (never the subject itself).
//! No passenger name, no receipt. Its plaintext is tagged as a payment link and read strictly,
//! so a `requestState` (sealed under the same ring) never reads as one, nor the reverse.
//!
//! **Lifetime.** [`LINK_TTL`] (15 minutes, the runtime's default `flow_budget`: as long as the
//! tool may wait for the payment). `pay_for_trip` mints the token once per call, with
//! `cx.memo`, so every round of a 2026-07-28 call renders the same URL.
//!
//! **Single use.** Nothing is stored when a link is made. The completion endpoint claims the
//! link's flow in an effect ledger (the `rondo_mcp::state::Ledger` that `Cx::once` uses), under
//! `{flow}/pay-link`, before it pays, and records the receipt after: the first claim pays; a
//! press while another is paying waits for its receipt and is told the link was used. The
//! ledger is this process's memory, or, with `--redis`, the Redis the fleet shares, so a link
//! is spent once across every instance.
//!
//! **Nothing untrue.** A page says a link was used only when a payment was recorded (the
//! booking's receipt, or the receipt recorded under the link), never from a claim alone: a
//! claim whose answer Redis sent too late (stalled by a slow disk or a fork) is given back by
//! the ledger once Redis answers, so the press that was told "try again" can pay, once. A
//! claim still unrecorded after a wait is [`Refusal::InProgress`]: nothing more is charged,
//! reload to see.
//!
//! **The user.** A link records who started the call (`cx.principal()`). The travel example
//! has no user login on its pages, so nothing compares it there; a server whose pages have a
//! login gives a [`PageLogin`] (`Config::page_login`), and the page then refuses a browser
//! signed in as anyone else, comparing the session's issuer and subject with the MCP token's
//! (the `/connect` example of the MCP specification: session `sub` against token `sub`).

use hyper::HeaderMap;
use rondo_mcp::prelude::Principal;
use rondo_mcp::shared::{Redis, RedisLedger};
use rondo_mcp::state::{Claim, Clock, KeyRing, Ledger, LedgerError, MemoryLedger};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long a payment link works after `pay_for_trip` made it.
pub const LINK_TTL: Duration = Duration::from_secs(15 * 60);
/// A longer token is not one of ours: refused before any decoding.
pub const MAX_TOKEN_CHARS: usize = 512;
/// How long past a link's expiry its use is remembered: the clock skew allowed between the
/// instances of a fleet.
const SKEW: Duration = Duration::from_secs(30);
/// The tag every payment link's plaintext carries.
const KIND: &str = "travel-pay/1";
/// The name a link's use is recorded under, after its flow id.
const USE: &str = "pay-link";

/// Who is signed in on the page, from the browser's request (its session cookie): for a server
/// whose pages have a user login. `None` when nobody is signed in.
pub type PageLogin = Arc<dyn Fn(&HeaderMap) -> Option<Principal> + Send + Sync>;

/// The sealed plaintext. Short names keep the URL short; unknown fields are refused.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Sealed {
    #[serde(rename = "k")]
    kind: String,
    #[serde(rename = "s")]
    store: String,
    #[serde(rename = "b")]
    booking: String,
    #[serde(rename = "f")]
    flow: String,
    #[serde(rename = "u", default, skip_serializing_if = "Option::is_none")]
    user: Option<String>,
    #[serde(rename = "x")]
    expires_ms: u64,
}

/// A link that opened: what it pays for, and for which flow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The booking it pays.
    pub booking: String,
    /// The flow (`cx.flow_id()`) of the `pay_for_trip` call that made it.
    pub flow: String,
    /// When it stops working, ms since the epoch.
    pub expires_ms: u64,
}

/// Why the page refuses a link. Each is a status and a sentence for the person at the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Not a link this page gave out (mistyped, cut short, forged, another server's or another
    /// process's, a booking id instead of a token).
    Unknown,
    /// Past its lifetime.
    Expired,
    /// Already used: the booking was paid through it.
    Used,
    /// The booking was paid through another link (another call of `pay_for_trip`).
    PaidElsewhere,
    /// Made for a signed-in user; nobody is signed in on the page.
    SignIn,
    /// Made for another user than the one signed in on the page.
    OtherUser,
    /// The record of used links cannot be reached (Redis down, or the memory ledger full).
    Unavailable,
    /// Another completion with this link is paying, or was cut off before recording what it
    /// did; nothing is recorded yet.
    InProgress,
}

impl Refusal {
    /// The HTTP status.
    pub fn status(self) -> u16 {
        match self {
            Refusal::Unknown => 404,
            Refusal::Expired | Refusal::Used => 410,
            Refusal::PaidElsewhere => 409,
            Refusal::SignIn | Refusal::OtherUser => 403,
            Refusal::Unavailable | Refusal::InProgress => 503,
        }
    }

    /// The page's heading.
    pub fn title(self) -> &'static str {
        match self {
            Refusal::Unknown => "This payment link is not valid",
            Refusal::Expired => "This payment link has expired",
            Refusal::Used => "This payment link has been used",
            Refusal::PaidElsewhere => "This booking is already paid",
            Refusal::SignIn => "Sign in to pay",
            Refusal::OtherUser => "This payment link is for another account",
            Refusal::Unavailable => "Payments are unavailable right now",
            Refusal::InProgress => "This payment is still being completed",
        }
    }

    /// What happened and what to do, in a sentence or two.
    pub fn text(self) -> &'static str {
        match self {
            Refusal::Unknown => {
                "This page did not give out this link: it may be mistyped or cut short, or it \
                 comes from another server. Nothing was paid. Ask your assistant to pay again; \
                 it will give you a new link."
            }
            Refusal::Expired => {
                "Payment links work for 15 minutes. Nothing was paid. Ask your assistant to pay \
                 again; it will give you a new link."
            }
            Refusal::Used => {
                "The booking was paid with this link, and a link pays once. Nothing more was \
                 charged. You can close this page."
            }
            Refusal::PaidElsewhere => {
                "It was paid through another payment link. Nothing was charged with this one. \
                 You can close this page."
            }
            Refusal::SignIn => {
                "This payment link belongs to a signed-in account. Nothing was paid. Sign in \
                 with the account you use with your assistant, then open the link again."
            }
            Refusal::OtherUser => {
                "It was made for the account that asked your assistant to pay, and you are \
                 signed in as someone else. Nothing was paid. Sign in with that account, or ask \
                 your assistant for a new link."
            }
            Refusal::Unavailable => {
                "This server cannot check payment links at the moment. Nothing was paid. Try \
                 again in a minute."
            }
            Refusal::InProgress => {
                "Another press of Pay with this link is being completed, or was cut off before \
                 it finished. Nothing more will be charged. Reload this page in a minute: it \
                 says whether the booking was paid, or shows the Pay button again."
            }
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}. {}", self.title(), self.text())
    }
}

/// Where the use of a link is recorded.
enum Uses {
    Memory(MemoryLedger),
    Redis(RedisLedger),
}

impl Uses {
    async fn claim(
        &self,
        key: &str,
        claimant: &str,
        until: SystemTime,
        now: SystemTime,
    ) -> Result<Claim, LedgerError> {
        match self {
            Uses::Memory(l) => l.claim(key, claimant, until, now).await,
            Uses::Redis(l) => l.claim(key, claimant, until, now).await,
        }
    }
    async fn record(&self, key: &str, claimant: &str, outcome: &str) -> Result<(), LedgerError> {
        match self {
            Uses::Memory(l) => l.record(key, claimant, outcome).await,
            Uses::Redis(l) => l.record(key, claimant, outcome).await,
        }
    }
    async fn release(&self, key: &str, claimant: &str) -> Result<(), LedgerError> {
        match self {
            Uses::Memory(l) => l.release(key, claimant).await,
            Uses::Redis(l) => l.release(key, claimant).await,
        }
    }
}

struct Inner {
    keys: KeyRing,
    store: String,
    clock: Arc<dyn Clock>,
    uses: Uses,
    login: Option<PageLogin>,
}

/// Makes and checks payment links (see the [module](self)). Clones share everything.
#[derive(Clone)]
pub struct PayLinks(Arc<Inner>);

impl fmt::Debug for PayLinks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PayLinks")
            .field("store", &self.0.store)
            .field("shared", &matches!(self.0.uses, Uses::Redis(_)))
            .field("login", &self.0.login.is_some())
            .finish_non_exhaustive()
    }
}

/// A link the completion endpoint claimed: [`PayLinks::spent`] records what it paid, or
/// [`PayLinks::unclaim`] gives it back when nothing was paid.
#[derive(Debug)]
pub struct Claimed {
    key: String,
    /// This completion's own id: only it records or gives back its claim.
    claimant: String,
}

/// How long a completion waits for another completion of the same link to record what it
/// paid, before it answers [`Refusal::InProgress`]; and how often it looks.
pub const CLAIM_WAIT: Duration = Duration::from_secs(5);
const CLAIM_POLL: Duration = Duration::from_millis(50);

impl PayLinks {
    /// Links sealed with `keys`, for the store `store` (its id), on `clock`; their use recorded
    /// on `redis` (shared by a fleet) or in this process's memory; checked against `login`.
    pub fn new(
        keys: KeyRing,
        store: &str,
        clock: Arc<dyn Clock>,
        redis: Option<&Redis>,
        login: Option<PageLogin>,
    ) -> PayLinks {
        let uses = match redis {
            Some(r) => Uses::Redis(r.ledger()),
            None => Uses::Memory(MemoryLedger::default()),
        };
        PayLinks(Arc::new(Inner {
            keys,
            store: store.to_owned(),
            clock,
            uses,
            login,
        }))
    }

    /// A new link's token for `booking`, made by the flow `flow` (`cx.flow_id()`) of a call
    /// from `principal` (`cx.principal()`). Random each time (a fresh nonce): mint it once per
    /// call, with `cx.memo`.
    pub fn mint(
        &self,
        booking: &str,
        flow: &str,
        principal: Option<&Principal>,
    ) -> Result<String, String> {
        let sealed = Sealed {
            kind: KIND.to_owned(),
            store: self.0.store.clone(),
            booking: booking.to_owned(),
            flow: flow.to_owned(),
            user: principal.map(|p| user_ref(p.issuer(), p.subject())),
            expires_ms: self.now_ms().saturating_add(millis(LINK_TTL)),
        };
        let plain = serde_json::to_vec(&sealed).map_err(|e| e.to_string())?;
        self.0
            .keys
            .seal(&plain)
            .map_err(|e| format!("No payment link could be made: {e}"))
    }

    /// Opens `token` for a request to the page with `headers`: the link, or why the page
    /// refuses it (unknown, expired, or, with a [`PageLogin`], another user's or nobody's).
    /// Whether it was used is for the store and [`PayLinks::claim`] to say.
    pub fn open(&self, token: &str, headers: &HeaderMap) -> Result<Link, Refusal> {
        let well_formed = !token.is_empty()
            && token.len() <= MAX_TOKEN_CHARS
            && token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !well_formed {
            return Err(Refusal::Unknown);
        }
        let plain = self.0.keys.open(token).map_err(|_| Refusal::Unknown)?;
        let sealed: Sealed = serde_json::from_slice(&plain).map_err(|_| Refusal::Unknown)?;
        if sealed.kind != KIND || sealed.store != self.0.store {
            return Err(Refusal::Unknown);
        }
        if self.now_ms() > sealed.expires_ms {
            return Err(Refusal::Expired);
        }
        if let (Some(want), Some(login)) = (&sealed.user, &self.0.login) {
            let who = login(headers).ok_or(Refusal::SignIn)?;
            let got = user_ref(who.issuer(), who.subject());
            if !same(want.as_bytes(), got.as_bytes()) {
                return Err(Refusal::OtherUser);
            }
        }
        Ok(Link {
            booking: sealed.booking,
            flow: sealed.flow,
            expires_ms: sealed.expires_ms,
        })
    }

    /// Claims `link` for a payment: the first claim of its flow's link gets it. A link whose
    /// payment is recorded is [`Refusal::Used`]; one that another completion holds is waited
    /// for (at most [`CLAIM_WAIT`]): [`Refusal::Used`] once it records its receipt, the claim
    /// when it gave it back (it paid nothing), else [`Refusal::InProgress`]. Across the fleet
    /// when the uses are on Redis.
    pub async fn claim(&self, link: &Link) -> Result<Claimed, Refusal> {
        let key = format!("{}/{USE}", link.flow);
        let until = at_ms(link.expires_ms.saturating_add(millis(SKEW)));
        let mut id = [0u8; 16];
        getrandom::fill(&mut id).map_err(|_| Refusal::Unavailable)?;
        let claimant = hex(&id);
        let waited = tokio::time::Instant::now();
        loop {
            match self
                .0
                .uses
                .claim(&key, &claimant, until, at_ms(self.now_ms()))
                .await
            {
                Ok(Claim::First) => return Ok(Claimed { key, claimant }),
                Ok(Claim::Done(_)) => return Err(Refusal::Used),
                Ok(Claim::Running) if waited.elapsed() < CLAIM_WAIT => {
                    tokio::time::sleep(CLAIM_POLL).await;
                }
                Ok(Claim::Running) => return Err(Refusal::InProgress),
                Err(e) => {
                    tracing::warn!(error = %e, "payment page: the record of used links cannot be reached");
                    return Err(Refusal::Unavailable);
                }
            }
        }
    }

    /// Records that the claimed link paid (`receipt`).
    pub async fn spent(&self, claimed: Claimed, receipt: &str) {
        let outcome = serde_json::json!({ "receipt": receipt }).to_string();
        if let Err(e) = self
            .0
            .uses
            .record(&claimed.key, &claimed.claimant, &outcome)
            .await
        {
            // The claim stays until it expires: later presses find the booking paid in the
            // store, or wait and answer that the payment is in progress.
            tracing::warn!(error = %e, "payment page: a used link's record was not written");
        }
    }

    /// Gives the claim back: nothing was paid with it.
    pub async fn unclaim(&self, claimed: Claimed) {
        if let Err(e) = self.0.uses.release(&claimed.key, &claimed.claimant).await {
            tracing::warn!(error = %e, "payment page: a link's claim was not released");
        }
    }

    fn now_ms(&self) -> u64 {
        self.0.clock.now_ms()
    }
}

/// What a link records of a principal: a digest of its issuer and subject (the `sub` a login
/// on the page can compare with), never the subject itself. The client id is left out on
/// purpose: a browser session has none.
fn user_ref(issuer: Option<&str>, subject: &str) -> String {
    let triple = serde_json::json!(["travel/pay-link/user", issuer, subject]);
    hex(&Sha256::digest(triple.to_string().as_bytes())[..16])
}

/// Whether `a` and `b` are equal, in time that depends only on their lengths.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Bytes as lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn at_ms(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_expired_page_says_the_lifetime_links_have() {
        let minutes = format!("work for {} minutes", LINK_TTL.as_secs() / 60);
        assert!(Refusal::Expired.text().contains(&minutes));
    }

    #[test]
    fn comparing_takes_the_whole_of_both() {
        assert!(same(b"abcd", b"abcd"));
        assert!(!same(b"abcd", b"abce"));
        assert!(!same(b"abc", b"abcd"));
        assert!(same(b"", b""));
    }

    #[test]
    fn a_user_is_their_issuer_and_subject_not_their_client() {
        let a = user_ref(Some("https://id.example"), "alice");
        assert_eq!(a.len(), 32);
        assert!(!a.contains("alice"));
        assert_ne!(a, user_ref(None, "alice"));
        assert_ne!(a, user_ref(Some("https://id.example"), "bob"));
        let with_client = Principal::verified("https://id.example", "alice", Some("app".into()));
        assert_eq!(a, user_ref(with_client.issuer(), with_client.subject()));
    }
}
