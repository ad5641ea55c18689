//! The `auth-remote` settings of a [`JwtVerifier`](super::JwtVerifier): keys fetched from a
//! JWKS URL or from the issuer's discovered `jwks_uri`, cached and refreshed.

use super::keys::KeySet;
use super::{ConfigError, JwtVerifierBuilder};
use crate::auth::remote::{RemoteKeys, Source};
use jsonwebtoken::jwk::JwkSet;
use std::time::Duration;

/// The default deadline of one fetch.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);
/// The default least time between two fetches caused by unknown `kid`s.
const MIN_REFRESH: Duration = Duration::from_secs(30);

#[derive(Default)]
pub(super) struct Settings {
    source: Option<Result<Source, String>>,
    discover: bool,
    fetch_timeout: Option<Duration>,
    min_refresh: Option<Duration>,
}

impl Settings {
    /// The remote key cache, when a source was given (not both it and static keys).
    pub(super) fn build(
        self,
        issuer: &str,
        has_static_keys: bool,
    ) -> Result<Option<RemoteKeys<KeySet>>, ConfigError> {
        let source = match (self.source, self.discover) {
            (None, false) => return Ok(None),
            (Some(_), true) => {
                return Err(ConfigError::new("give `jwks_url` or `discover`, not both"));
            }
            (Some(s), false) => s.map_err(|e| format!("the JWKS URL: {e}")),
            (None, true) => Source::discover(issuer),
        }
        .map_err(ConfigError::new)?;
        if has_static_keys {
            return Err(ConfigError::new(
                "give static keys or fetched ones (`jwks_url`, `discover`), not both",
            ));
        }
        let timeout = self.fetch_timeout.unwrap_or(FETCH_TIMEOUT);
        let min_refresh = self.min_refresh.unwrap_or(MIN_REFRESH);
        RemoteKeys::new(source, parse_jwks, timeout, min_refresh)
            .map(Some)
            .map_err(ConfigError::new)
    }
}

/// A fetched JWKS as keys: valid JSON, at most 64 keys, at least one usable.
fn parse_jwks(body: &[u8]) -> Result<KeySet, String> {
    let set: JwkSet = serde_json::from_slice(body).map_err(|_| "not a JWKS document")?;
    let keys = KeySet::from_jwks(&set)?;
    if keys.keys.is_empty() {
        return Err("no usable signature key".into());
    }
    Ok(keys)
}

/// The `auth-remote` settings.
impl JwtVerifierBuilder {
    /// Fetches the keys from this JWKS URL (`https`; `http` only on a loopback host): at the
    /// first verification, not at build (a server starts while its identity provider is
    /// down), then again when the answer's `Cache-Control: max-age` (clamped to 5 min–24 h;
    /// 1 h without) is over, and when a token names an unknown `kid` (at most once per
    /// [`min_refresh_interval`](Self::min_refresh_interval)). A failed refresh keeps the last
    /// good set for up to a day; with no set at all a token gets `AuthError::Unavailable`.
    pub fn jwks_url(mut self, url: &str) -> Self {
        self.remote.source = Some(Source::url(url));
        self
    }
    /// Like [`jwks_url`](Self::jwks_url), with the `jwks_uri` of the issuer's metadata
    /// document: RFC 8414's `/.well-known/oauth-authorization-server`, then OpenID's
    /// `/.well-known/openid-configuration` (path-inserted, then appended), whose `issuer` must
    /// equal the configured issuer exactly.
    pub fn discover(mut self) -> Self {
        self.remote.discover = true;
        self
    }
    /// The deadline of each fetch (default 10 s).
    pub fn fetch_timeout(mut self, timeout: Duration) -> Self {
        self.remote.fetch_timeout = Some(timeout);
        self
    }
    /// The least time between two fetches, whatever the traffic (default 30 s): a flood of
    /// tokens with unknown `kid`s causes one fetch per interval, and their verifications wait
    /// for the fetch in flight instead of starting their own.
    pub fn min_refresh_interval(mut self, interval: Duration) -> Self {
        self.remote.min_refresh = Some(interval);
        self
    }
}
