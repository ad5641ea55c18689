//! `requestState` sealing: what a 2026-07-28 tool carries from one round to the next.
//!
//! `requestState` is attacker-controlled input (MCP 2026-07-28 § MRTR, Server Requirements 4-5).
//! Rondo seals it with XChaCha20-Poly1305 under a key ring, so instances that share the ring serve
//! any retry, and binds it to the method, the target (tool, prompt or resource), a digest of the
//! arguments, the principal, the server's audience and an expiry. Every failure to open it is
//! reported to the client as one frozen `-32602` message; the reason only goes to the log.

use crate::protocol::Error;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// The message of every `requestState` rejection. Frozen: it tells an attacker nothing.
pub const STATE_REJECTED: &str = "Invalid or expired requestState";

const FORMAT_VERSION: u8 = 1;
const NONCE_LEN: usize = 24;
const AAD: &[u8] = b"rondo-mcp/requestState/v1";

/// A source of wall-clock time in milliseconds since the Unix epoch, injectable for tests.
pub trait Clock: Send + Sync + 'static {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> u64;
}

/// The system clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0)
    }
}

/// A clock that only moves when told to: for expiry tests.
#[derive(Debug, Default)]
pub struct ManualClock(AtomicU64);

impl ManualClock {
    /// A clock reading `ms`.
    pub fn new(ms: u64) -> Arc<Self> {
        Arc::new(ManualClock(AtomicU64::new(ms)))
    }
    /// Moves the clock forward.
    pub fn advance(&self, d: std::time::Duration) {
        self.0.fetch_add(d.as_millis() as u64, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// One 256-bit sealing key with its id.
#[derive(Clone)]
struct Key {
    id: u32,
    cipher: XChaCha20Poly1305,
}

/// The keys that seal and open `requestState`.
///
/// The first key seals; every key opens (rotation: add the new key first, keep the old one
/// until the longest state lifetime has passed, then drop it). Instances behind one load
/// balancer must share the ring.
#[derive(Clone)]
pub struct KeyRing {
    keys: Vec<Key>,
}

impl fmt::Debug for KeyRing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ids: Vec<u32> = self.keys.iter().map(|k| k.id).collect();
        f.debug_struct("KeyRing").field("key_ids", &ids).finish()
    }
}

/// A key ring could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRingError(String);

impl fmt::Display for KeyRingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KeyRingError {}

impl KeyRing {
    /// A ring with one key: `id` and 32 secret bytes.
    pub fn new(id: u32, secret: [u8; 32]) -> Self {
        KeyRing {
            keys: vec![Key {
                id,
                cipher: XChaCha20Poly1305::new(&secret.into()),
            }],
        }
    }

    /// Adds an older key that still opens state but no longer seals it.
    pub fn with_previous(mut self, id: u32, secret: [u8; 32]) -> Self {
        self.keys.push(Key {
            id,
            cipher: XChaCha20Poly1305::new(&secret.into()),
        });
        self
    }

    /// A ring with one random key: fine for one process, wrong for a fleet (each instance
    /// would reject the others' state).
    pub fn random() -> Self {
        let mut secret = [0u8; 32];
        fill_random(&mut secret);
        let mut id = [0u8; 4];
        fill_random(&mut id);
        KeyRing::new(u32::from_be_bytes(id), secret)
    }

    /// Parses `id:base64url-secret[,id:secret...]` (first entry seals), as stored in an
    /// environment variable such as `RONDO_STATE_KEYS`.
    pub fn parse(spec: &str) -> Result<Self, KeyRingError> {
        let mut ring: Option<KeyRing> = None;
        for (i, entry) in spec
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .enumerate()
        {
            let (id, secret) = entry
                .split_once(':')
                .ok_or_else(|| KeyRingError(format!("key {i}: expected `id:secret`")))?;
            let id: u32 = id
                .parse()
                .map_err(|_| KeyRingError(format!("key {i}: id must be a u32")))?;
            let bytes = URL_SAFE_NO_PAD
                .decode(secret)
                .map_err(|_| KeyRingError(format!("key {i}: secret must be unpadded base64url")))?;
            let secret: [u8; 32] = bytes
                .try_into()
                .map_err(|_| KeyRingError(format!("key {i}: secret must be 32 bytes")))?;
            ring = Some(match ring {
                None => KeyRing::new(id, secret),
                Some(r) => r.with_previous(id, secret),
            });
        }
        ring.ok_or_else(|| KeyRingError("no keys given".into()))
    }

    /// Reads a ring from the environment variable `var`; `Ok(None)` when it is not set.
    pub fn from_env(var: &str) -> Result<Option<Self>, KeyRingError> {
        match std::env::var(var) {
            Ok(spec) => KeyRing::parse(&spec).map(Some),
            Err(_) => Ok(None),
        }
    }

    /// Generates a new `id:secret` entry for [`KeyRing::parse`].
    pub fn generate_spec(id: u32) -> String {
        let mut secret = [0u8; 32];
        fill_random(&mut secret);
        format!("{id}:{}", URL_SAFE_NO_PAD.encode(secret))
    }

    /// Seals `plaintext` under the first key.
    pub fn seal(&self, plaintext: &[u8]) -> String {
        let key = &self.keys[0];
        let mut nonce = [0u8; NONCE_LEN];
        fill_random(&mut nonce);
        let mut aad = Vec::with_capacity(AAD.len() + 5);
        aad.extend_from_slice(AAD);
        aad.push(FORMAT_VERSION);
        aad.extend_from_slice(&key.id.to_be_bytes());
        let ct = key
            .cipher
            .encrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: plaintext,
                    aad: &aad,
                },
            )
            .unwrap_or_default();
        let mut out = Vec::with_capacity(1 + 4 + NONCE_LEN + ct.len());
        out.push(FORMAT_VERSION);
        out.extend_from_slice(&key.id.to_be_bytes());
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&ct);
        URL_SAFE_NO_PAD.encode(out)
    }

    /// Opens a token sealed by [`KeyRing::seal`]; the error is the reason, for the log.
    pub fn open(&self, token: &str) -> Result<Vec<u8>, &'static str> {
        // The default engine rejects padding and non-zero trailing bits: one token, one spelling.
        let raw = URL_SAFE_NO_PAD
            .decode(token)
            .map_err(|_| "not canonical unpadded base64url")?;
        if raw.len() < 1 + 4 + NONCE_LEN + 16 {
            return Err("too short");
        }
        if raw[0] != FORMAT_VERSION {
            return Err("unknown format version");
        }
        let id = u32::from_be_bytes([raw[1], raw[2], raw[3], raw[4]]);
        let key = self
            .keys
            .iter()
            .find(|k| k.id == id)
            .ok_or("unknown key id")?;
        let mut aad = Vec::with_capacity(AAD.len() + 5);
        aad.extend_from_slice(AAD);
        aad.extend_from_slice(&raw[..5]);
        let nonce = XNonce::try_from(&raw[5..5 + NONCE_LEN]).map_err(|_| "bad nonce")?;
        key.cipher
            .decrypt(
                &nonce,
                Payload {
                    msg: &raw[5 + NONCE_LEN..],
                    aad: &aad,
                },
            )
            .map_err(|_| "authentication failed")
    }
}

pub(crate) fn fill_random(buf: &mut [u8]) {
    // The OS generator only fails on platforms without one; sealing must not continue then.
    if let Err(e) = getrandom::fill(buf) {
        panic!("no operating-system random number generator: {e}");
    }
}

/// What a sealed `requestState` binds and carries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct StatePayload {
    /// Expiry, ms since the epoch.
    pub exp: u64,
    /// The server's audience.
    pub aud: String,
    /// The method (`tools/call`, ...).
    pub m: String,
    /// The tool or prompt name, or the resource URI.
    pub t: String,
    /// Hex digest of the canonical arguments.
    pub a: String,
    /// The principal's id, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p: Option<String>,
    /// The round this state leads into (1 = the first retry).
    pub r: u32,
    /// Questions asked in the last round: wire key -> (question key, digest).
    #[serde(default)]
    pub q: Vec<Asked>,
    /// Answers accepted so far.
    #[serde(default)]
    pub ans: Vec<Answer>,
    /// Memoised intermediate results.
    #[serde(default)]
    pub memo: serde_json::Map<String, Value>,
}

/// A question asked in the previous round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Asked {
    /// The key on the wire (`inputRequests` key).
    pub w: String,
    /// The question's key in the code.
    pub k: String,
    /// Digest of the question's canonical rendering.
    pub d: String,
}

/// An answer kept for later rounds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Answer {
    /// The question's key in the code.
    pub k: String,
    /// Digest of the question it answers.
    pub d: String,
    /// The client's answer, as received.
    pub v: Value,
}

/// What a request is, for binding state to it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Binding {
    pub method: String,
    pub target: String,
    pub args_digest: String,
    pub principal: Option<String>,
    pub audience: String,
}

/// Why a state was rejected (logged, never sent).
pub(crate) fn check_binding(
    p: &StatePayload,
    b: &Binding,
    now_ms: u64,
) -> Result<(), &'static str> {
    if now_ms > p.exp {
        return Err("expired");
    }
    if p.aud != b.audience {
        return Err("issued for another audience");
    }
    if p.m != b.method || p.t != b.target {
        return Err("issued for another method or target");
    }
    if p.a != b.args_digest {
        return Err("issued for other arguments");
    }
    if p.p != b.principal {
        return Err("issued to another principal");
    }
    Ok(())
}

/// The error every state failure answers with.
pub(crate) fn rejected() -> Error {
    Error::invalid_params(STATE_REJECTED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seal_open_round_trip_and_tamper() {
        let ring = KeyRing::new(7, [1; 32]);
        let t = ring.seal(b"hello");
        assert_eq!(ring.open(&t).unwrap(), b"hello");
        let mut tampered = t.clone();
        tampered.push_str("-TAMPERED");
        assert!(ring.open(&tampered).is_err());
        let other = KeyRing::new(7, [2; 32]);
        assert_eq!(other.open(&t), Err("authentication failed"));
        let rotated = KeyRing::new(8, [3; 32]).with_previous(7, [1; 32]);
        assert_eq!(rotated.open(&t).unwrap(), b"hello");
    }

    #[test]
    fn non_canonical_base64_is_rejected() {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let ring = KeyRing::new(1, [9; 32]);
        // Three consecutive plaintext lengths: tokens ending in 0, 2 and 4 unused bits.
        let mut pads = Vec::new();
        for len in 0..3 {
            let t = ring.seal(&vec![b'x'; len]);
            assert!(ring.open(&t).is_ok());
            let pad = (4 - t.len() % 4) % 4;
            pads.push(pad);
            assert!(
                ring.open(&format!("{t}{}", "=".repeat(pad.max(1))))
                    .is_err()
            );
            if pad > 0 {
                let (head, last) = t.split_at(t.len() - 1);
                let i = ALPHABET
                    .iter()
                    .position(|&c| c == last.as_bytes()[0])
                    .unwrap();
                let flipped = format!("{head}{}", ALPHABET[i | 1] as char);
                assert_ne!(flipped, t);
                assert!(ring.open(&flipped).is_err(), "a trailing bit set");
            }
        }
        pads.sort_unstable();
        assert_eq!(pads, [0, 1, 2]);
        // Nonces are random: seal until a token has both characters the alphabets differ in.
        let t = (0..256)
            .map(|_| ring.seal(b"x"))
            .find(|t| t.contains('-') && t.contains('_'))
            .expect("a token with '-' and '_'");
        assert!(ring.open(&t.replace('-', "+")).is_err());
        assert!(ring.open(&t.replace('_', "/")).is_err());
    }

    #[test]
    fn parse_spec() {
        let spec = format!(
            "{},{}",
            KeyRing::generate_spec(2),
            KeyRing::generate_spec(1)
        );
        let ring = KeyRing::parse(&spec).unwrap();
        assert_eq!(format!("{ring:?}"), "KeyRing { key_ids: [2, 1] }");
        assert!(KeyRing::parse("x").is_err());
        assert!(KeyRing::parse("1:AAAA").is_err());
    }
}
