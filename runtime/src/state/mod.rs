//! `requestState` sealing: what a 2026-07-28 tool carries from one round to the next.
//!
//! `requestState` is attacker-controlled input (MCP 2026-07-28 § MRTR, Server Requirements 4-5).
//! Rondo seals it with XChaCha20-Poly1305 under a [`KeyRing`], so instances
//! that share the ring serve any retry, and binds it to the method, the target (tool, prompt or
//! resource), a digest of the arguments, the principal, the server's audience and an expiry.
//! Every failure to open it is reported to the client as one frozen `-32602` message; the reason
//! only goes to the log.
//!
//! This module owns the token format: the payload's fields and their compact wire names are
//! private to it. The rest of the crate hands it what a request is bound to and what a round
//! carries, and gets back a token, or the reverse.

mod clock;
mod keys;
mod ledger;
mod replay;

pub use clock::{Clock, SystemClock};
pub use keys::{KeyRing, KeyRingError, SealError};
pub use ledger::{Claim, Ledger, LedgerError, MAX_OUTCOME_BYTES, MemoryLedger, ONCE_WAIT};
pub use replay::{GuardError, MemoryReplayGuard, ReplayGuard, RoundUse};

pub(crate) use keys::random_id;
pub(crate) use ledger::{ErasedLedger, at_ms};
pub(crate) use replay::{ErasedGuard, fingerprint};

use crate::protocol::{Error, JsonObject};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::Duration;

/// The message of every `requestState` rejection (with code `-32602`). Frozen: it tells an
/// attacker nothing, and a fleet operator or a test can match on it.
pub const STATE_REJECTED: &str = "Invalid or expired requestState";

/// A question's identity: its key in the code and the digest of its canonical rendering. An
/// answer counts for a question only when both match (design §4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct QuestionId {
    /// The question's key in the code.
    #[serde(rename = "k")]
    pub key: String,
    /// Digest of the question's canonical rendering.
    #[serde(rename = "d")]
    pub digest: String,
}

/// A question asked in the previous round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Asked {
    /// The key on the wire (`inputRequests` key).
    #[serde(rename = "w")]
    pub wire_key: String,
    /// Which question it was.
    #[serde(flatten)]
    pub question: QuestionId,
}

/// An answer kept for later rounds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Answer {
    /// The question it answers.
    #[serde(flatten)]
    pub question: QuestionId,
    /// The client's answer, as received.
    #[serde(rename = "v")]
    pub value: Value,
}

/// What a request is, for binding state to it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Binding {
    /// The method (`tools/call`, ...).
    pub method: String,
    /// The tool or prompt name, or the resource URI.
    pub target: String,
    /// Hex digest of the canonical arguments.
    pub args_digest: String,
    /// The principal's id, when there is one.
    pub principal: Option<String>,
    /// The server's audience.
    pub audience: String,
}

/// What one round carries to the next.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Carried {
    /// The flow's id: minted in its first round, the same on every retry of it
    /// ([`Cx::flow_id`](crate::Cx::flow_id)); with the round, it names a sealed round for the
    /// replay guard.
    pub flow: String,
    /// The round the state leads into (1 = the first retry).
    pub round: u32,
    /// The questions asked in the round that issued the state.
    pub asked: Vec<Asked>,
    /// Answers accepted so far.
    pub answers: Vec<Answer>,
    /// Memoised intermediate results.
    pub memo: JsonObject,
    /// How many of the rounds only waited for an out-of-band flow (state-only
    /// `InputRequiredResult`s): they do not count towards the round cap.
    pub waits: u32,
    /// When each out-of-band flow (a URL-mode question's page) started to be waited for, in ms
    /// since the epoch, by question key: the waiting's time budget runs from there.
    pub flows: BTreeMap<String, u64>,
    /// The names of the effects this flow recorded with [`Cx::once`](crate::Cx::once): every
    /// round that seals the next state renews their records to outlive it.
    pub once: Vec<String>,
}

/// The sealed payload: the binding, an expiry, and what the round carried. Short field names
/// keep tokens small; they never leave this module.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Payload {
    /// Expiry, ms since the epoch.
    #[serde(rename = "exp")]
    expires_ms: u64,
    #[serde(rename = "aud")]
    audience: String,
    #[serde(rename = "m")]
    method: String,
    #[serde(rename = "t")]
    target: String,
    #[serde(rename = "a")]
    args_digest: String,
    #[serde(rename = "p", default, skip_serializing_if = "Option::is_none")]
    principal: Option<String>,
    #[serde(rename = "id")]
    flow: String,
    #[serde(rename = "r")]
    round: u32,
    #[serde(rename = "q", default)]
    asked: Vec<Asked>,
    #[serde(rename = "ans", default)]
    answers: Vec<Answer>,
    #[serde(default)]
    memo: JsonObject,
    #[serde(rename = "wr", default, skip_serializing_if = "is_zero")]
    waits: u32,
    #[serde(rename = "f", default, skip_serializing_if = "BTreeMap::is_empty")]
    flows: BTreeMap<String, u64>,
    #[serde(rename = "o", default, skip_serializing_if = "Vec::is_empty")]
    once: Vec<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Payload {
    fn new(binding: Binding, carried: Carried, expires_ms: u64) -> Payload {
        Payload {
            expires_ms,
            audience: binding.audience,
            method: binding.method,
            target: binding.target,
            args_digest: binding.args_digest,
            principal: binding.principal,
            flow: carried.flow,
            round: carried.round,
            asked: carried.asked,
            answers: carried.answers,
            memo: carried.memo,
            waits: carried.waits,
            flows: carried.flows,
            once: carried.once,
        }
    }

    /// Why the state does not belong to this request (logged, never sent).
    fn check(&self, b: &Binding, now_ms: u64) -> Result<(), &'static str> {
        if now_ms > self.expires_ms {
            return Err("expired");
        }
        if self.audience != b.audience {
            return Err("issued for another audience");
        }
        if self.method != b.method || self.target != b.target {
            return Err("issued for another method or target");
        }
        if self.args_digest != b.args_digest {
            return Err("issued for other arguments");
        }
        if self.principal != b.principal {
            return Err("issued to another principal");
        }
        Ok(())
    }

    fn into_carried(self) -> Carried {
        Carried {
            flow: self.flow,
            round: self.round,
            asked: self.asked,
            answers: self.answers,
            memo: self.memo,
            waits: self.waits,
            flows: self.flows,
            once: self.once,
        }
    }
}

/// Seals and opens the `requestState` of one server: its keys, the state's lifetime and size
/// cap, and the clock.
pub(crate) struct StateCodec<'a> {
    /// Seals with the first key, opens with any.
    pub keys: &'a KeyRing,
    /// How long a sealed state stays valid.
    pub ttl: Duration,
    /// The largest plaintext, in bytes.
    pub max_bytes: usize,
    /// Now, in ms since the epoch.
    pub now_ms: u64,
}

impl StateCodec<'_> {
    /// Opens `token` for the request `binding` describes. Any failure is the frozen
    /// [`STATE_REJECTED`] error; the reason goes to the log.
    pub(crate) fn open(&self, token: &Value, binding: &Binding) -> Result<Opened, Error> {
        self.try_open(token, binding).map_err(|why| {
            tracing::warn!(reason = why, "requestState rejected");
            rejected()
        })
    }

    fn try_open(&self, token: &Value, binding: &Binding) -> Result<Opened, &'static str> {
        let token = token.as_str().ok_or("not a string")?;
        if token.len() > KeyRing::max_token_len(self.max_bytes) {
            return Err("too long");
        }
        let plain = self.keys.open(token)?;
        let payload: Payload = serde_json::from_slice(&plain).map_err(|_| "malformed payload")?;
        payload.check(binding, self.now_ms)?;
        Ok(Opened {
            expires_ms: payload.expires_ms,
            carried: payload.into_carried(),
        })
    }

    /// Seals what `carried` holds for the request `binding` describes.
    ///
    /// A state over the size cap is the client's fault (`-32602`, naming the cap) when the
    /// answers it carries make it so, that is when it would fit without them; otherwise the
    /// server's own (memoised values): `-32603`.
    pub(crate) fn seal(&self, binding: Binding, carried: Carried) -> Result<String, Error> {
        let expires_ms = self.now_ms + self.ttl.as_millis() as u64;
        let mut payload = Payload::new(binding, carried, expires_ms);
        let plain =
            serde_json::to_vec(&payload).map_err(|e| Error::internal(format!("state: {e}")))?;
        if plain.len() > self.max_bytes {
            let answers = std::mem::take(&mut payload.answers);
            let without = serde_json::to_vec(&payload).map_or(usize::MAX, |p| p.len());
            tracing::warn!(
                bytes = plain.len(),
                without_answers = without,
                answers = answers.len(),
                cap = self.max_bytes,
                "requestState too large"
            );
            if without <= self.max_bytes {
                return Err(Error::invalid_params(format!(
                    "The answers are too large to carry to the next round: this server carries at most {} bytes of state between rounds",
                    self.max_bytes
                )));
            }
            return Err(Error::internal("The request's carried state is too large"));
        }
        self.keys.seal(&plain).map_err(|e| {
            tracing::error!(error = %e, "requestState not sealed");
            Error::internal("The request's carried state could not be sealed")
        })
    }
}

/// An opened `requestState`: what it carries, and when it expires (the replay guard keeps the
/// round until then).
#[derive(Debug)]
pub(crate) struct Opened {
    /// What the round carried.
    pub carried: Carried,
    /// Its expiry, ms since the epoch.
    pub expires_ms: u64,
}

impl Opened {
    /// The sealed round's id for the replay guard: its flow id and round.
    pub(crate) fn round_id(&self) -> String {
        format!("{}.{}", self.carried.flow, self.carried.round)
    }
}

/// The plaintext of a valid state for `binding` (the fuzzers' seed): what `seal` encrypts.
#[cfg(feature = "fuzzing")]
pub(crate) fn payload_bytes(binding: Binding, carried: Carried, expires_ms: u64) -> Vec<u8> {
    serde_json::to_vec(&Payload::new(binding, carried, expires_ms)).unwrap_or_default()
}

/// The error every state failure answers with.
fn rejected() -> Error {
    Error::invalid_params(STATE_REJECTED)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn binding() -> Binding {
        Binding {
            method: "tools/call".into(),
            target: "greet".into(),
            args_digest: "00".into(),
            principal: None,
            audience: "s".into(),
        }
    }

    fn codec(keys: &KeyRing, now_ms: u64) -> StateCodec<'_> {
        StateCodec {
            keys,
            ttl: Duration::from_secs(1),
            max_bytes: 1024,
            now_ms,
        }
    }

    #[test]
    fn wire_names_stay_short_and_round_trip() {
        let question = QuestionId {
            key: "name".into(),
            digest: "ab".into(),
        };
        let asked = Asked {
            wire_key: "name".into(),
            question: question.clone(),
        };
        assert_eq!(
            serde_json::to_value(&asked).unwrap(),
            json!({"w": "name", "k": "name", "d": "ab"})
        );
        let carried = Carried {
            flow: "f1".into(),
            round: 1,
            asked: vec![asked],
            answers: vec![Answer {
                question,
                value: json!({"action": "accept"}),
            }],
            memo: JsonObject::new(),
            waits: 1,
            flows: BTreeMap::from([("pay".to_owned(), 7)]),
            once: vec!["order".to_owned()],
        };
        let keys = KeyRing::new(1, [3; 32]);
        let token = codec(&keys, 0).seal(binding(), carried.clone()).unwrap();
        let opened = codec(&keys, 0).open(&json!(token), &binding()).unwrap();
        assert_eq!(opened.carried, carried);
        assert_eq!(opened.expires_ms, 1_000);
        assert_eq!(opened.round_id(), "f1.1");
        let late = codec(&keys, 5_000).open(&json!(token), &binding());
        assert_eq!(late.unwrap_err().message, STATE_REJECTED);
    }
}
