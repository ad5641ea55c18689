//! The test authorization server's signing side: access tokens minted in-process with the
//! test keys of `tests/fixtures/auth/` (test-only keys, see the README there), and the public
//! JWKS that verifies them.

use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use serde_json::{Value, json};
use std::time::{SystemTime, UNIX_EPOCH};

/// The issuer of [`claims`].
pub const ISSUER: &str = "https://id.example";
/// The `kid` of [`TestKey::Rsa`] in [`jwks`].
pub const KID: &str = "rsa-1";

/// The test key pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestKey {
    /// RS256, `kid` `rsa-1`, in both JWKS documents.
    Rsa,
    /// ES256 (P-256), `kid` `ec-1`, in both JWKS documents.
    Ec,
    /// RS256, `kid` `rsa-2`, only in [`jwks_rotated`].
    Rotated,
    /// RS256, in no JWKS: what it signs must be refused.
    Untrusted,
}

impl TestKey {
    /// The `kid` the JWKS documents give it (the untrusted key borrows `rsa-1`'s).
    pub fn kid(self) -> &'static str {
        match self {
            TestKey::Rsa | TestKey::Untrusted => KID,
            TestKey::Ec => "ec-1",
            TestKey::Rotated => "rsa-2",
        }
    }
    /// Its signature algorithm.
    pub fn algorithm(self) -> Algorithm {
        match self {
            TestKey::Ec => Algorithm::ES256,
            _ => Algorithm::RS256,
        }
    }
    /// Its private key in PEM (PKCS #8).
    pub fn private_pem(self) -> &'static [u8] {
        match self {
            TestKey::Rsa => include_bytes!("../fixtures/auth/rsa.key.pem"),
            TestKey::Ec => include_bytes!("../fixtures/auth/ec.key.pem"),
            TestKey::Rotated => include_bytes!("../fixtures/auth/rsa2.key.pem"),
            TestKey::Untrusted => include_bytes!("../fixtures/auth/untrusted-rsa.key.pem"),
        }
    }
    /// Its public key in PEM (SubjectPublicKeyInfo).
    pub fn public_pem(self) -> &'static [u8] {
        match self {
            TestKey::Rsa => include_bytes!("../fixtures/auth/rsa.pub.pem"),
            TestKey::Ec => include_bytes!("../fixtures/auth/ec.pub.pem"),
            TestKey::Rotated => include_bytes!("../fixtures/auth/rsa2.pub.pem"),
            TestKey::Untrusted => include_bytes!("../fixtures/auth/untrusted-rsa.pub.pem"),
        }
    }
}

/// Seconds since the epoch, now.
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The claims of a valid token from [`ISSUER`] for `audience`: subject `alice`, client `app`,
/// `scope` as given, expiring in 10 minutes. Change or remove members for the bad cases.
pub fn claims(audience: &str, scope: &str) -> Value {
    json!({
        "iss": ISSUER, "sub": "alice", "client_id": "app", "aud": audience,
        "scope": scope, "iat": now(), "exp": now() + 600,
    })
}

/// `claims` signed with [`TestKey::Rsa`] under `kid` `rsa-1`, `typ` `at+jwt`.
pub fn mint(claims: Value) -> String {
    mint_with(TestKey::Rsa, Some(KID), &claims)
}

/// `claims` signed with `key`, under `kid` (none: no `kid` header), `typ` `at+jwt`.
pub fn mint_with(key: TestKey, kid: Option<&str>, claims: &Value) -> String {
    let mut header = Header::new(key.algorithm());
    header.kid = kid.map(str::to_owned);
    header.typ = Some("at+jwt".into());
    let signing = match key {
        TestKey::Ec => EncodingKey::from_ec_pem(key.private_pem()),
        _ => EncodingKey::from_rsa_pem(key.private_pem()),
    };
    let signing = signing.unwrap_or_else(|e| panic!("the test key {key:?}: {e}"));
    encode(&header, claims, &signing).unwrap_or_else(|e| panic!("signing a test token: {e}"))
}

/// The public JWKS of [`TestKey::Rsa`] and [`TestKey::Ec`].
pub fn jwks() -> Value {
    parse(include_str!("../fixtures/auth/jwks.json"))
}

/// [`jwks`] plus [`TestKey::Rotated`] (`kid` `rsa-2`): the set after a key rotation.
pub fn jwks_rotated() -> Value {
    parse(include_str!("../fixtures/auth/jwks-rotated.json"))
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("a committed JWKS: {e}"))
}
