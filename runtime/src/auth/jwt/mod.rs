//! [`JwtVerifier`] (the `auth-jwt` feature): JWT access tokens (RFC 9068, RFC 7519) checked
//! with the issuer's public keys: the signature with an allowed algorithm and a key that fits
//! it, the issuer, the expiry and not-before time; the claims become the [`AccessToken`] whose
//! audience the resource server checks.

pub(crate) mod claims;
#[cfg(feature = "auth-remote")]
mod fetched;
#[cfg(all(test, feature = "auth-remote"))]
mod fetched_tests;
mod keys;
#[cfg(test)]
mod tests;

use super::{AuthError, ConfigError, TokenVerifier};
use crate::identity::{AccessToken, BearerToken};
use crate::tools::BoxFuture;
pub use jsonwebtoken::Algorithm;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{AlgorithmFamily, DecodingKey, Validation};
use keys::{Key, KeySet, Pick};
use serde_json::{Map, Value};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// The longest leeway accepted (longer ones are cut to it), as for the resource server.
const MAX_LEEWAY: Duration = Duration::from_secs(300);

/// Verifies JWT access tokens of one issuer.
///
/// ```
/// use rondo_mcp::auth::{Algorithm, JwtVerifier};
/// let pem = b"-----BEGIN PUBLIC KEY-----
/// MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEwXuApelJybnN637RLzCL9HK5TGkO
/// g+PW2J0M1gcNuVMFr3juGo2C1hg3Y+2jrlC0MctOvM7knwS5KhcPv442ag==
/// -----END PUBLIC KEY-----";
/// let verifier = JwtVerifier::builder("https://id.example")
///     .algorithms([Algorithm::ES256])
///     .public_key_pem(Some("ec-1"), pem)
///     .build()?;
/// assert_eq!(verifier.issuer(), "https://id.example");
/// # Ok::<(), rondo_mcp::auth::ConfigError>(())
/// ```
///
/// - **Algorithms**: an allow-list (default `RS256`). `none` does not exist here; HMAC
///   (`HS256/384/512`) only with [`hmac_secret`](JwtVerifierBuilder::hmac_secret), which then
///   is the only key and its algorithm the only one allowed. The algorithm of a token must fit
///   the family of the key it names (RFC 8725 §3.1): an `HS256` token "signed" with an RSA
///   public key as its secret is refused.
/// - **Keys**: by the header's `kid`; a key given without a `kid` signs any token when it is
///   the only one usable with the token's algorithm; a token without `kid` needs exactly one
///   usable key.
/// - **Claims**: `iss` equal to the configured issuer byte for byte; `sub` required; `exp`
///   required and `nbf` when present, with the leeway (default 30 s, at most 5 min); `aud` (a
///   string or an array; none gives an empty list, which the resource server refuses);
///   `client_id`, else `azp`; scopes from `scope` (space-delimited) and `scp` (a string or an
///   array), their union. Every claim is kept in [`AccessToken::claims`].
/// - **`typ`**: `at+jwt`, `application/at+jwt`, `JWT` or none by default;
///   [`require_at_jwt`](JwtVerifierBuilder::require_at_jwt) accepts the RFC 9068 values only.
#[derive(Clone)]
pub struct JwtVerifier {
    inner: Arc<Inner>,
}

struct Inner {
    issuer: String,
    algorithms: Vec<Algorithm>,
    keys: Keys,
    leeway: Duration,
    require_at_jwt: bool,
}

/// Where the keys are.
enum Keys {
    Static(Arc<KeySet>),
    #[cfg(feature = "auth-remote")]
    Remote(Box<super::remote::RemoteKeys<KeySet>>),
}

/// A [`JwtVerifier`] being configured.
pub struct JwtVerifierBuilder {
    issuer: String,
    algorithms: Option<Vec<Algorithm>>,
    keys: Vec<Key>,
    #[cfg(feature = "auth-remote")]
    remote: fetched::Settings,
    hmac: Option<Algorithm>,
    leeway: Duration,
    require_at_jwt: bool,
    errors: Vec<String>,
}

impl JwtVerifier {
    /// Starts the settings of a verifier of tokens issued by `issuer` (the `iss` claim, as
    /// the authorization server writes it).
    pub fn builder(issuer: impl Into<String>) -> JwtVerifierBuilder {
        JwtVerifierBuilder {
            issuer: issuer.into(),
            algorithms: None,
            keys: Vec::new(),
            #[cfg(feature = "auth-remote")]
            remote: fetched::Settings::default(),
            hmac: None,
            leeway: Duration::from_secs(30),
            require_at_jwt: false,
            errors: Vec::new(),
        }
    }

    /// The issuer whose tokens this verifier accepts.
    pub fn issuer(&self) -> &str {
        &self.inner.issuer
    }

    /// The whole check of `token` at `now`.
    pub(crate) async fn check(
        &self,
        token: &str,
        now: SystemTime,
    ) -> Result<AccessToken, AuthError> {
        let header = self.header(token)?;
        let (kid, alg) = (header.kid.as_deref(), header.alg);
        let set = match &self.inner.keys {
            Keys::Static(set) => set.clone(),
            #[cfg(feature = "auth-remote")]
            Keys::Remote(remote) => {
                let set = remote.current().await.map_err(|_| unavailable())?;
                match set.pick(kid, alg) {
                    // A key the issuer added since the set was fetched (a rotation).
                    Pick::UnknownKid => remote.refresh_after(&set).await.unwrap_or(set),
                    _ => set,
                }
            }
        };
        let key = match set.pick(kid, alg) {
            Pick::Found(k) => k,
            Pick::UnknownKid | Pick::NoKeyForAlg => {
                return Err(invalid("is signed by an unknown key"));
            }
            Pick::Ambiguous => {
                return Err(invalid(
                    "names no key (kid), and several could have signed it",
                ));
            }
        };
        let claims = signed_claims(token, &key.key, alg)?;
        claims::access_token(claims, &self.inner.issuer, self.inner.leeway, now)
    }

    /// The token's header, if its algorithm is allowed and its type accepted.
    fn header(&self, token: &str) -> Result<jsonwebtoken::Header, AuthError> {
        let header =
            jsonwebtoken::decode_header(token).map_err(|_| invalid("is not a well-formed JWT"))?;
        if !self.inner.algorithms.contains(&header.alg) {
            return Err(invalid(
                "is signed with an algorithm this server does not accept",
            ));
        }
        let typ = header.typ.as_deref().map(str::to_ascii_lowercase);
        let accepted = match typ.as_deref() {
            Some("at+jwt" | "application/at+jwt") => true,
            Some("jwt") | None => !self.inner.require_at_jwt,
            Some(_) => false,
        };
        if !accepted {
            return Err(invalid("is not of an accepted type (typ)"));
        }
        Ok(header)
    }
}

fn invalid(what: &str) -> AuthError {
    AuthError::Invalid(format!("The access token {what}"))
}

#[cfg(feature = "auth-remote")]
fn unavailable() -> AuthError {
    AuthError::Unavailable("The issuer's keys cannot be fetched".into())
}

/// The claims of `token` once its signature by `key` with `alg` is checked (nothing else: the
/// claims are [`claims::access_token`]'s).
fn signed_claims(
    token: &str,
    key: &DecodingKey,
    alg: Algorithm,
) -> Result<Map<String, Value>, AuthError> {
    let mut v = Validation::new(alg);
    v.required_spec_claims.clear();
    v.validate_exp = false;
    v.validate_nbf = false;
    v.validate_aud = false;
    v.leeway = 0;
    use jsonwebtoken::errors::ErrorKind as K;
    match jsonwebtoken::decode::<Map<String, Value>>(token, key, &v) {
        Ok(data) => Ok(data.claims),
        Err(e) => Err(match e.kind() {
            K::InvalidSignature => invalid("has an invalid signature"),
            K::InvalidAlgorithm
            | K::InvalidKeyFormat
            | K::InvalidRsaKey(_)
            | K::InvalidEcdsaKey
            | K::InvalidEddsaKey => invalid("is signed by an unknown key"),
            _ => invalid("is not a well-formed JWT"),
        }),
    }
}

impl TokenVerifier for JwtVerifier {
    fn verify<'a>(
        &'a self,
        token: &'a BearerToken,
    ) -> BoxFuture<'a, Result<AccessToken, AuthError>> {
        Box::pin(self.check(token.expose(), SystemTime::now()))
    }
}

impl fmt::Debug for JwtVerifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JwtVerifier")
            .field("issuer", &self.inner.issuer)
            .field("algorithms", &self.inner.algorithms)
            .finish_non_exhaustive()
    }
}

impl JwtVerifierBuilder {
    /// The algorithms accepted (default `RS256` only): any of `RS256/384/512`,
    /// `PS256/384/512`, `ES256`, `ES384`, `EdDSA`. An empty list or an HMAC algorithm is an
    /// error at [`build`](Self::build) (HMAC: use [`hmac_secret`](Self::hmac_secret)).
    pub fn algorithms(mut self, algorithms: impl IntoIterator<Item = Algorithm>) -> Self {
        self.algorithms = Some(algorithms.into_iter().collect());
        self
    }
    /// A public key in PEM (`PUBLIC KEY`: RSA, EC or Ed25519; or `RSA PUBLIC KEY`), under
    /// `kid` when the issuer names its keys.
    pub fn public_key_pem(self, kid: Option<&str>, pem: &[u8]) -> Self {
        let key = keys::from_pem(pem);
        self.push(kid, key, "PEM public key")
    }
    /// A public key as a DER SubjectPublicKeyInfo (RSA, EC or Ed25519), under `kid`.
    pub fn public_key_der(self, kid: Option<&str>, der: &[u8]) -> Self {
        let key = keys::from_spki_der(der);
        self.push(kid, key, "DER public key")
    }
    /// A public key already made by `jsonwebtoken` (RSA components, an EC point, ...), under
    /// `kid`. An HMAC key is an error: use [`hmac_secret`](Self::hmac_secret).
    pub fn key(self, kid: Option<&str>, key: DecodingKey) -> Self {
        let key = match key.family() {
            AlgorithmFamily::Hmac => Err("an HMAC key is given with `hmac_secret`".to_owned()),
            _ => keys::checked(&key).map(|()| key),
        };
        self.push(kid, key, "key")
    }
    /// The signature keys of a JWKS (RFC 7517), looked up by `kid`. Keys for encryption, of
    /// unknown types and HMAC keys are skipped; at most 64 keys.
    pub fn jwks(mut self, set: &JwkSet) -> Self {
        match KeySet::from_jwks(set) {
            Ok(set) if set.keys.is_empty() => self
                .errors
                .push("the JWKS has no usable signature key".into()),
            Ok(set) => self.keys.extend(set.keys),
            Err(e) => self.errors.push(e),
        }
        self
    }
    /// A shared HMAC secret (`alg` one of `HS256/384/512`): then the only key, and `alg` the
    /// only algorithm accepted. Prefer the issuer's public keys: a resource server that can
    /// verify with a shared secret can also sign with it.
    pub fn hmac_secret(mut self, secret: &[u8], alg: Algorithm) -> Self {
        if alg.family() != AlgorithmFamily::Hmac {
            self.errors.push(format!(
                "`hmac_secret` takes an HMAC algorithm, not {alg:?}"
            ));
            return self;
        }
        match DecodingKey::from_secret(secret) {
            Ok(key) => {
                self.hmac = Some(alg);
                self.keys.push(Key {
                    kid: None,
                    key,
                    alg: Some(alg),
                });
            }
            Err(_) => self.errors.push("the HMAC secret is empty".into()),
        }
        self
    }
    /// How far past `exp` and before `nbf` a token is still accepted (default 30 s, at most
    /// 5 min), as for [`ResourceServerBuilder::leeway`](super::ResourceServerBuilder::leeway).
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway.min(MAX_LEEWAY);
        self
    }
    /// Accepts only tokens whose `typ` is `at+jwt` (RFC 9068 §4), which also refuses an
    /// OpenID ID token presented as an access token (default: `JWT` and none accepted too).
    pub fn require_at_jwt(mut self, require: bool) -> Self {
        self.require_at_jwt = require;
        self
    }

    fn push(mut self, kid: Option<&str>, key: Result<DecodingKey, String>, what: &str) -> Self {
        match key {
            Ok(key) => self.keys.push(Key {
                kid: kid.map(str::to_owned),
                key,
                alg: None,
            }),
            Err(e) => self.errors.push(format!("the {what}: {e}")),
        }
        self
    }

    /// The verifier, or what is wrong with its settings.
    pub fn build(self) -> Result<JwtVerifier, ConfigError> {
        if let Some(e) = self.errors.into_iter().next() {
            return Err(ConfigError::new(e));
        }
        if self.issuer.is_empty() {
            return Err(ConfigError::new("the issuer cannot be empty"));
        }
        let algorithms = match (self.hmac, self.algorithms) {
            (Some(_), _) if self.keys.len() > 1 => {
                return Err(ConfigError::new(
                    "an HMAC secret is the verifier's only key",
                ));
            }
            (Some(h), None) => vec![h],
            (Some(h), Some(a)) if a == [h] => a,
            (Some(_), Some(_)) => {
                return Err(ConfigError::new(
                    "with an HMAC secret, its algorithm is the only one allowed",
                ));
            }
            (None, a) => a.unwrap_or_else(|| vec![Algorithm::RS256]),
        };
        if algorithms.is_empty() {
            return Err(ConfigError::new("allow at least one algorithm"));
        }
        if self.hmac.is_none()
            && algorithms
                .iter()
                .any(|a| a.family() == AlgorithmFamily::Hmac)
        {
            return Err(ConfigError::new(
                "HMAC algorithms are allowed only with `hmac_secret`",
            ));
        }
        if self.keys.len() > keys::MAX_KEYS {
            return Err(ConfigError::new("a JWT verifier holds at most 64 keys"));
        }
        #[cfg(feature = "auth-remote")]
        let keys = match self.remote.build(&self.issuer, !self.keys.is_empty())? {
            Some(remote) => Keys::Remote(Box::new(remote)),
            None => static_keys(self.keys)?,
        };
        #[cfg(not(feature = "auth-remote"))]
        let keys = static_keys(self.keys)?;
        Ok(JwtVerifier {
            inner: Arc::new(Inner {
                issuer: self.issuer,
                algorithms,
                keys,
                leeway: self.leeway,
                require_at_jwt: self.require_at_jwt,
            }),
        })
    }
}

fn static_keys(keys: Vec<Key>) -> Result<Keys, ConfigError> {
    if keys.is_empty() {
        return Err(ConfigError::new("a JWT verifier needs at least one key"));
    }
    Ok(Keys::Static(Arc::new(KeySet { keys })))
}
