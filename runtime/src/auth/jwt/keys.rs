//! The verification keys of a [`JwtVerifier`](super::JwtVerifier): read from a JWKS or from
//! PEM/DER public keys, and picked for a token by its header's `kid` and `alg`.

use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, JwkSet, PublicKeyUse};
use jsonwebtoken::{Algorithm, AlgorithmFamily, DecodingKey};
use spki::der::Decode;
use spki::{ObjectIdentifier, SubjectPublicKeyInfoRef};

/// The most keys one set holds (a JWKS with more is refused).
pub(crate) const MAX_KEYS: usize = 64;

const RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
const EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const ED25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");

/// One verification key.
#[derive(Clone)]
pub(crate) struct Key {
    pub(crate) kid: Option<String>,
    pub(crate) key: DecodingKey,
    /// The one algorithm the key is for, when it says (a JWK's `alg` or curve, an HMAC
    /// secret's algorithm); else any algorithm of its family.
    pub(crate) alg: Option<Algorithm>,
}

impl Key {
    fn usable_with(&self, alg: Algorithm) -> bool {
        self.key.family() == alg.family() && self.alg.is_none_or(|a| a == alg)
    }
}

/// A set of keys, at most [`MAX_KEYS`].
#[derive(Clone, Default)]
pub(crate) struct KeySet {
    pub(crate) keys: Vec<Key>,
}

/// What [`KeySet::pick`] found for a token.
pub(crate) enum Pick<'a> {
    Found(&'a Key),
    /// No key has the token's `kid` (a refresh of a remote set may bring it).
    UnknownKid,
    /// The key named by `kid`, or every key, is for another algorithm.
    NoKeyForAlg,
    /// No `kid`, and more than one key could have signed it.
    Ambiguous,
}

impl KeySet {
    /// The usable signature keys of a JWKS. Keys for encryption, of unknown types, HMAC
    /// (`oct`: a published secret is no secret), or malformed are skipped; more than
    /// [`MAX_KEYS`] keys is an error.
    pub(crate) fn from_jwks(set: &JwkSet) -> Result<KeySet, String> {
        if set.keys.len() > MAX_KEYS {
            return Err(format!("a JWKS holds at most {MAX_KEYS} keys"));
        }
        Ok(KeySet {
            keys: set.keys.iter().filter_map(from_jwk).collect(),
        })
    }

    /// The key for a token whose header names `kid` and `alg` (RFC 8725 §3.1: the algorithm
    /// must fit the key; it is never taken from the header alone).
    pub(crate) fn pick(&self, kid: Option<&str>, alg: Algorithm) -> Pick<'_> {
        let usable = |k: &&Key| k.usable_with(alg);
        if let Some(kid) = kid {
            let mut named = self
                .keys
                .iter()
                .filter(|k| k.kid.as_deref() == Some(kid))
                .peekable();
            if named.peek().is_some() {
                return named.find(usable).map_or(Pick::NoKeyForAlg, Pick::Found);
            }
            // A key configured without a `kid` (a PEM key) signs tokens that name one.
            let kidless = self.keys.iter().filter(|k| k.kid.is_none()).filter(usable);
            return only(kidless).map_or(Pick::UnknownKid, Pick::Found);
        }
        match only(self.keys.iter().filter(usable)) {
            Ok(k) => Pick::Found(k),
            Err(0) => Pick::NoKeyForAlg,
            Err(_) => Pick::Ambiguous,
        }
    }
}

/// The one item of `it`, or how many there are (0, or 2 for "more than one").
fn only<'a>(mut it: impl Iterator<Item = &'a Key>) -> Result<&'a Key, usize> {
    match (it.next(), it.next()) {
        (Some(k), None) => Ok(k),
        (None, _) => Err(0),
        (Some(_), Some(_)) => Err(2),
    }
}

/// A JWK as a verification key, or `None` when it cannot be one.
fn from_jwk(jwk: &Jwk) -> Option<Key> {
    if jwk
        .common
        .public_key_use
        .as_ref()
        .is_some_and(|u| *u != PublicKeyUse::Signature)
    {
        return None;
    }
    let declared = match jwk.common.key_algorithm {
        Some(a) => Some(Algorithm::try_from(a).ok()?),
        None => None,
    };
    let (key, implied) = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => (DecodingKey::from_jwk(jwk).ok()?, None),
        AlgorithmParameters::EllipticCurve(p) => {
            let alg = match p.curve {
                EllipticCurve::P256 => Algorithm::ES256,
                EllipticCurve::P384 => Algorithm::ES384,
                _ => return None,
            };
            (DecodingKey::from_jwk(jwk).ok()?, Some(alg))
        }
        AlgorithmParameters::OctetKeyPair(p) if p.curve == EllipticCurve::Ed25519 => {
            (DecodingKey::from_jwk(jwk).ok()?, Some(Algorithm::EdDSA))
        }
        _ => return None,
    };
    if declared.is_some_and(|d| d.family() != key.family() || implied.is_some_and(|i| i != d)) {
        return None;
    }
    checked(&key).ok()?;
    Some(Key {
        kid: jwk.common.key_id.clone(),
        key,
        alg: declared.or(implied),
    })
}

/// Refuses key material the crypto backend would not survive: an Ed25519 key is exactly
/// 32 bytes (a shorter one would make the backend index out of bounds).
pub(crate) fn checked(key: &DecodingKey) -> Result<(), String> {
    match key.family() {
        AlgorithmFamily::Ed if key.try_get_as_bytes().map(<[u8]>::len).ok() != Some(32) => {
            Err("an Ed25519 public key is 32 bytes".into())
        }
        _ => Ok(()),
    }
}

/// A public key from PEM: `PUBLIC KEY` (SubjectPublicKeyInfo: RSA, EC or Ed25519) or
/// `RSA PUBLIC KEY` (PKCS #1).
pub(crate) fn from_pem(pem: &[u8]) -> Result<DecodingKey, String> {
    let (label, der) = spki::der::pem::decode_vec(pem).map_err(|_| "not a PEM document")?;
    match label {
        "PUBLIC KEY" => from_spki_der(&der),
        "RSA PUBLIC KEY" => Ok(DecodingKey::from_rsa_der(&der)),
        _ => Err("a PEM public key is labelled `PUBLIC KEY` or `RSA PUBLIC KEY`".into()),
    }
}

/// A public key from a DER SubjectPublicKeyInfo (RSA, EC or Ed25519).
pub(crate) fn from_spki_der(der: &[u8]) -> Result<DecodingKey, String> {
    let spki = SubjectPublicKeyInfoRef::from_der(der)
        .map_err(|_| "not a DER SubjectPublicKeyInfo public key")?;
    let bits = spki
        .subject_public_key
        .as_bytes()
        .ok_or("the public key is not a whole number of bytes")?;
    let key = match spki.algorithm.oid {
        RSA_ENCRYPTION => DecodingKey::from_rsa_der(bits),
        EC_PUBLIC_KEY => DecodingKey::from_ec_der(bits),
        ED25519 => DecodingKey::from_ed_der(bits),
        _ => return Err("the public key is not RSA, EC or Ed25519".into()),
    };
    checked(&key)?;
    Ok(key)
}
