//! [`KeyRing`]: the keys that seal `requestState`, and the sealed token's framing:
//! base64url-unpadded(format version ‖ key id ‖ nonce ‖ XChaCha20-Poly1305 ciphertext).

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use std::fmt;

const FORMAT_VERSION: u8 = 1;
const KEY_ID_LEN: usize = 4;
const NONCE_LEN: usize = 24;
/// The Poly1305 tag the ciphertext carries after the plaintext.
const TAG_LEN: usize = 16;
/// Bytes a sealed token adds to its plaintext before base64.
const FRAMING: usize = 1 + KEY_ID_LEN + NONCE_LEN + TAG_LEN;
/// The header every token starts with: format version and key id.
const HEADER: usize = 1 + KEY_ID_LEN;
const AAD: &[u8] = b"rondo-mcp/requestState/v1";

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
    ///
    /// # Panics
    /// When the operating system has no random generator.
    pub fn random() -> Self {
        let mut secret = [0u8; 32];
        fill_random(&mut secret);
        let mut id = [0u8; 4];
        fill_random(&mut id);
        KeyRing::new(u32::from_be_bytes(id), secret)
    }

    /// Parses `id:base64url-secret[,id:secret...]`, as stored in an environment variable such
    /// as `RONDO_STATE_KEYS`. The first entry seals; every entry opens, so an entry after the
    /// first is a key the ring accepts but does not seal with. Ids must differ.
    ///
    /// A rotation from key 1 to key 2 across a fleet is three rollouts, each finished on every
    /// instance before the next begins: `1:old,2:new` (every instance accepts the new key),
    /// then `2:new,1:old` (the new key seals; state sealed with the old one still opens), then,
    /// once the longest state lifetime ([`Server::state_ttl`](crate::Server::state_ttl)) has
    /// passed since the second rollout finished, `2:new`.
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
            if ring
                .as_ref()
                .is_some_and(|r| r.keys.iter().any(|k| k.id == id))
            {
                // A token names its key by id: two keys under one id would make the tokens of
                // one of them unopenable wherever the other is listed first.
                return Err(KeyRingError(format!(
                    "key {i}: id {id} is given twice; a new key needs a new id"
                )));
            }
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
    ///
    /// # Panics
    /// When the operating system has no random generator.
    pub fn generate_spec(id: u32) -> String {
        let mut secret = [0u8; 32];
        fill_random(&mut secret);
        format!("{id}:{}", URL_SAFE_NO_PAD.encode(secret))
    }

    /// The longest token that can hold `max_payload` bytes of plaintext: longer tokens are
    /// refused before any decoding.
    pub(crate) fn max_token_len(max_payload: usize) -> usize {
        (max_payload + FRAMING).div_ceil(3) * 4
    }

    /// Seals `plaintext` under the first key.
    ///
    /// Fails only when the operating system has no random generator for the nonce, or the
    /// cipher refuses the input: the caller must not answer with a token then.
    pub fn seal(&self, plaintext: &[u8]) -> Result<String, SealError> {
        let key = &self.keys[0];
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).map_err(|e| SealError(format!("no random nonce: {e}")))?;
        let mut header = Vec::with_capacity(HEADER);
        header.push(FORMAT_VERSION);
        header.extend_from_slice(&key.id.to_be_bytes());
        let ct = key
            .cipher
            .encrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: plaintext,
                    aad: &aad(&header),
                },
            )
            .map_err(|_| SealError("encryption failed".into()))?;
        let mut out = Vec::with_capacity(FRAMING + plaintext.len());
        out.extend_from_slice(&header);
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&ct);
        Ok(URL_SAFE_NO_PAD.encode(out))
    }

    /// Opens a token sealed by [`KeyRing::seal`]; the error is the reason, for the log.
    pub fn open(&self, token: &str) -> Result<Vec<u8>, &'static str> {
        // The default engine rejects padding and non-zero trailing bits: one token, one spelling.
        let raw = URL_SAFE_NO_PAD
            .decode(token)
            .map_err(|_| "not canonical unpadded base64url")?;
        if raw.len() < FRAMING {
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
        let (header, rest) = raw.split_at(HEADER);
        let (nonce, ciphertext) = rest.split_at(NONCE_LEN);
        let nonce = XNonce::try_from(nonce).map_err(|_| "bad nonce")?;
        key.cipher
            .decrypt(
                &nonce,
                Payload {
                    msg: ciphertext,
                    aad: &aad(header),
                },
            )
            .map_err(|_| "authentication failed")
    }
}

/// The associated data: a fixed label plus the token's header, so a token cannot be re-labelled
/// with another version or key id.
fn aad(header: &[u8]) -> Vec<u8> {
    let mut aad = Vec::with_capacity(AAD.len() + header.len());
    aad.extend_from_slice(AAD);
    aad.extend_from_slice(header);
    aad
}

/// Sealing `requestState` failed; the request is answered with an internal error instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealError(String);

impl fmt::Display for SealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "requestState could not be sealed: {}", self.0)
    }
}

impl std::error::Error for SealError {}

/// Fills `buf` from the operating system's generator.
///
/// # Panics
/// On platforms without one: keys and ids must never come from anything weaker.
pub(crate) fn fill_random(buf: &mut [u8]) {
    if let Err(e) = getrandom::fill(buf) {
        panic!("no operating-system random number generator: {e}");
    }
}

/// A fresh random id: 16 random bytes as 32 lowercase hex digits (a flow id, a 2025-11-25
/// `elicitationId`).
pub(crate) fn random_id() -> String {
    let mut id = [0u8; 16];
    fill_random(&mut id);
    crate::canonical::hex(&id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seal_open_round_trip_and_tamper() {
        let ring = KeyRing::new(7, [1; 32]);
        let t = ring.seal(b"hello").unwrap();
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
            let t = ring.seal(&vec![b'x'; len]).unwrap();
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
            .map(|_| ring.seal(b"x").unwrap())
            .find(|t| t.contains('-') && t.contains('_'))
            .expect("a token with '-' and '_'");
        assert!(ring.open(&t.replace('-', "+")).is_err());
        assert!(ring.open(&t.replace('_', "/")).is_err());
    }

    #[test]
    fn the_token_bound_covers_the_framing() {
        let ring = KeyRing::new(1, [5; 32]);
        for len in [0, 1, 2, 3, 100] {
            let token = ring.seal(&vec![7; len]).unwrap();
            assert!(token.len() <= KeyRing::max_token_len(len), "{len}");
            assert!(token.len() > KeyRing::max_token_len(len) - 4, "{len}");
        }
    }

    #[test]
    fn a_rotation_in_three_phases_keeps_every_mixed_fleet_working() {
        let (old, new) = (KeyRing::generate_spec(1), KeyRing::generate_spec(2));
        let ring = |spec: &str| KeyRing::parse(spec).unwrap();
        let phases = [
            ring(&old),
            ring(&format!("{old},{new}")),
            ring(&format!("{new},{old}")),
            ring(&new),
        ];
        let sealer = |r: &KeyRing| {
            let t = r.seal(b"s").unwrap();
            let raw = URL_SAFE_NO_PAD.decode(&t).unwrap();
            (t, u32::from_be_bytes([raw[1], raw[2], raw[3], raw[4]]))
        };
        // Who seals with what: the new key only from the second rollout on.
        let ids: Vec<u32> = phases.iter().map(|r| sealer(r).1).collect();
        assert_eq!(ids, [1, 1, 2, 2]);
        // During each rollout the fleet mixes two neighbouring phases: each opens the other's.
        for pair in phases.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            assert!(b.open(&sealer(a).0).is_ok() && a.open(&sealer(b).0).is_ok());
        }
        // Skipping the first rollout would not: an old-only instance refuses the new key.
        assert_eq!(phases[0].open(&sealer(&phases[2]).0), Err("unknown key id"));
        // After retirement, what the old key sealed is refused.
        assert_eq!(phases[3].open(&sealer(&phases[1]).0), Err("unknown key id"));
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
        let twice = format!(
            "{},{}",
            KeyRing::generate_spec(3),
            KeyRing::generate_spec(3)
        );
        assert_eq!(
            KeyRing::parse(&twice).unwrap_err().to_string(),
            "key 1: id 3 is given twice; a new key needs a new id"
        );
        assert!(KeyRing::parse("1:AAAA").is_err());
    }
}
