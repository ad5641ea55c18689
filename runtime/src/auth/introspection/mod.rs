//! [`IntrospectionVerifier`] (the `auth-remote` feature): opaque or JWT access tokens checked
//! by asking the authorization server (RFC 7662), with a bounded cache of its answers and a
//! bound on the calls in flight.

use super::jwt::claims;
use super::remote::client::{Fetcher, check_url};
use super::{AuthError, ConfigError, TokenVerifier};
use crate::identity::{AccessToken, Audience, BearerToken};
use crate::tools::BoxFuture;
use base64::Engine;
use bytes::Bytes;
use http::{Request, Uri, header};
use http_body_util::Full;
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};
use tokio::sync::Semaphore;

/// The largest introspection answer read, in bytes.
const MAX_ANSWER_BYTES: usize = 64 * 1024;
#[cfg(test)]
mod tests;

/// How long a refusal (`active: false`) is remembered.
const NEGATIVE_TTL: Duration = Duration::from_secs(10);

/// How the resource server authenticates to the introspection endpoint.
#[derive(Clone)]
#[non_exhaustive]
pub enum ClientAuth {
    /// `client_secret_basic` (RFC 6749 §2.3.1): id and secret form-encoded, then Basic.
    Basic {
        /// The resource server's client id at the authorization server.
        id: String,
        /// Its secret.
        secret: String,
    },
    /// A bearer token of the resource server's own.
    Bearer(String),
}

impl fmt::Debug for ClientAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientAuth::Basic { id, .. } => write!(f, "Basic({id:?}, [redacted])"),
            ClientAuth::Bearer(_) => f.write_str("Bearer([redacted])"),
        }
    }
}

impl ClientAuth {
    fn header(&self) -> String {
        match self {
            ClientAuth::Basic { id, secret } => {
                let form = |s: &str| utf8_percent_encode(s, NON_ALPHANUMERIC).to_string();
                let pair = format!("{}:{}", form(id), form(secret));
                let b64 = base64::engine::general_purpose::STANDARD.encode(pair);
                format!("Basic {b64}")
            }
            ClientAuth::Bearer(t) => format!("Bearer {t}"),
        }
    }
}

/// Verifies tokens by RFC 7662 introspection at one authorization server.
///
/// The answer must say `active: true` and carry `exp` (a token without expiry is refused, as
/// for JWTs); `iss`, when present, must equal the configured issuer; `sub`, `client_id`,
/// `scope`, `nbf`, `aud` are read as in a JWT. An answer without `aud` is refused by the
/// resource server unless the verifier was built with
/// [`audience_vouched_by`](IntrospectionVerifierBuilder::audience_vouched_by). Answers are cached
/// by the SHA-256 of the token (never the token), for `min(exp - now, cache_ttl)`, refusals for
/// 10 s; at most `max_in_flight` calls run at once.
#[derive(Clone)]
pub struct IntrospectionVerifier {
    inner: Arc<Inner>,
}

struct Inner {
    issuer: String,
    endpoint: Uri,
    auth: String,
    vouched: Option<&'static str>,
    leeway: Duration,
    cache_ttl: Duration,
    cache_entries: usize,
    fetch_timeout: Duration,
    fetcher: Fetcher,
    permits: Semaphore,
    cache: Mutex<Cache>,
}

/// An [`IntrospectionVerifier`] being configured.
pub struct IntrospectionVerifierBuilder {
    issuer: String,
    endpoint: Result<Uri, String>,
    auth: ClientAuth,
    vouched: Option<&'static str>,
    leeway: Duration,
    cache_ttl: Duration,
    cache_entries: usize,
    max_in_flight: usize,
    fetch_timeout: Duration,
}

impl IntrospectionVerifier {
    /// Starts the settings of a verifier asking `endpoint` (`https`; `http` on a loopback host)
    /// about the tokens of `issuer`, authenticating with `auth`.
    pub fn builder(
        issuer: impl Into<String>,
        endpoint: &str,
        auth: ClientAuth,
    ) -> IntrospectionVerifierBuilder {
        IntrospectionVerifierBuilder {
            issuer: issuer.into(),
            endpoint: check_url(endpoint),
            auth,
            vouched: None,
            leeway: Duration::from_secs(30),
            cache_ttl: Duration::from_secs(60),
            cache_entries: 10_000,
            max_in_flight: 32,
            fetch_timeout: Duration::from_secs(10),
        }
    }

    async fn check(&self, token: &str) -> Result<AccessToken, AuthError> {
        let i = &*self.inner;
        let key: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        if let Some(hit) = i.cache().get(&key) {
            return hit;
        }
        let answer = self.ask(token).await?;
        let now = SystemTime::now();
        let result = self.token_of(answer, now);
        let ttl = match &result {
            Ok(t) => t
                .expires_at
                .duration_since(now)
                .unwrap_or_default()
                .min(i.cache_ttl),
            Err(_) => NEGATIVE_TTL,
        };
        if !matches!(result, Err(AuthError::Unavailable(_))) {
            i.cache().put(key, result.clone(), ttl, i.cache_entries);
        }
        result
    }

    /// The endpoint's answer, within the bound on calls in flight and the deadline.
    async fn ask(&self, token: &str) -> Result<Value, AuthError> {
        let i = &*self.inner;
        let unavailable = || AuthError::Unavailable("The token cannot be introspected".into());
        let _permit = tokio::time::timeout(i.fetch_timeout, i.permits.acquire())
            .await
            .map_err(|_| unavailable())?
            .map_err(|_| unavailable())?;
        let body = format!(
            "token={}&token_type_hint=access_token",
            utf8_percent_encode(token, NON_ALPHANUMERIC)
        );
        let request = Request::post(i.endpoint.clone())
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::ACCEPT, "application/json")
            .header(header::AUTHORIZATION, &i.auth)
            .body(Full::new(Bytes::from(body)))
            .map_err(|_| unavailable())?;
        let fetched = i
            .fetcher
            .send(request, MAX_ANSWER_BYTES)
            .await
            .map_err(|e| {
                tracing::warn!(endpoint = %i.endpoint, "introspection {e}");
                unavailable()
            })?;
        serde_json::from_slice(&fetched.body).map_err(|_| {
            tracing::warn!(endpoint = %i.endpoint, "introspection answered no JSON");
            unavailable()
        })
    }

    /// The token of an answer (RFC 7662 §2.2).
    fn token_of(&self, answer: Value, now: SystemTime) -> Result<AccessToken, AuthError> {
        let i = &*self.inner;
        let Value::Object(mut map) = answer else {
            return Err(AuthError::Unavailable(
                "The token cannot be introspected".into(),
            ));
        };
        if map.get("active") != Some(&Value::Bool(true)) {
            return Err(AuthError::Invalid("The access token is not active".into()));
        }
        map.entry("iss")
            .or_insert_with(|| Value::String(i.issuer.clone()));
        let no_aud = !map.contains_key("aud");
        let mut token = claims::access_token(map, &i.issuer, i.leeway, now)?;
        if let (true, Some(reason)) = (no_aud, i.vouched) {
            token.audience = Audience::Vouched(reason);
        }
        Ok(token)
    }
}

impl Inner {
    fn cache(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.cache.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl TokenVerifier for IntrospectionVerifier {
    fn verify<'a>(
        &'a self,
        token: &'a BearerToken,
    ) -> BoxFuture<'a, Result<AccessToken, AuthError>> {
        Box::pin(self.check(token.expose()))
    }
}

impl fmt::Debug for IntrospectionVerifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IntrospectionVerifier")
            .field("issuer", &self.inner.issuer)
            .field("endpoint", &self.inner.endpoint)
            .finish_non_exhaustive()
    }
}

impl IntrospectionVerifierBuilder {
    /// Accepts answers without `aud`, because the authorization server's answer already
    /// means "for this resource" (for example, a dedicated introspection client per resource
    /// server): `reason` says so, in the code, and is logged once at build.
    pub fn audience_vouched_by(mut self, reason: &'static str) -> Self {
        self.vouched = Some(reason);
        self
    }
    /// How far past `exp` and before `nbf` a token is accepted (default 30 s, at most 5 min).
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway.min(Duration::from_secs(300));
        self
    }
    /// The longest an active answer is reused (default 60 s; never past the token's `exp`).
    pub fn cache_ttl(mut self, ttl: Duration) -> Self {
        self.cache_ttl = ttl;
        self
    }
    /// The most answers cached (default 10 000; the oldest goes first).
    pub fn cache_entries(mut self, entries: usize) -> Self {
        self.cache_entries = entries;
        self
    }
    /// The most introspection calls at once (default 32); a verification waiting for a
    /// turn longer than the fetch timeout is `Unavailable`.
    pub fn max_in_flight(mut self, calls: usize) -> Self {
        self.max_in_flight = calls;
        self
    }
    /// The deadline of one call (default 10 s).
    pub fn fetch_timeout(mut self, timeout: Duration) -> Self {
        self.fetch_timeout = timeout;
        self
    }

    /// The verifier, or what is wrong with its settings.
    pub fn build(self) -> Result<IntrospectionVerifier, ConfigError> {
        let endpoint = self
            .endpoint
            .map_err(|e| ConfigError::new(format!("the introspection endpoint: {e}")))?;
        if self.issuer.is_empty() {
            return Err(ConfigError::new("the issuer cannot be empty"));
        }
        if self.max_in_flight == 0 {
            return Err(ConfigError::new("allow at least one introspection call"));
        }
        if let Some(reason) = self.vouched {
            tracing::info!(reason, "introspection answers without `aud` are accepted");
        }
        Ok(IntrospectionVerifier {
            inner: Arc::new(Inner {
                issuer: self.issuer,
                endpoint,
                auth: self.auth.header(),
                vouched: self.vouched,
                leeway: self.leeway,
                cache_ttl: self.cache_ttl,
                cache_entries: self.cache_entries,
                fetch_timeout: self.fetch_timeout,
                fetcher: Fetcher::new(self.fetch_timeout).map_err(ConfigError::new)?,
                permits: Semaphore::new(self.max_in_flight),
                cache: Mutex::new(Cache::default()),
            }),
        })
    }
}

/// Answers by token digest, with their expiry, and their order of insertion.
#[derive(Default)]
struct Cache {
    entries: HashMap<[u8; 32], (Result<AccessToken, AuthError>, Instant, u64)>,
    order: VecDeque<([u8; 32], u64)>,
    next: u64,
}

impl Cache {
    fn get(&mut self, key: &[u8; 32]) -> Option<Result<AccessToken, AuthError>> {
        let (value, until, _) = self.entries.get(key)?;
        if *until > Instant::now() {
            return Some(value.clone());
        }
        self.entries.remove(key);
        None
    }

    fn put(
        &mut self,
        key: [u8; 32],
        value: Result<AccessToken, AuthError>,
        ttl: Duration,
        cap: usize,
    ) {
        if cap == 0 || ttl.is_zero() {
            return;
        }
        if self.entries.len() >= cap {
            let now = Instant::now();
            self.entries.retain(|_, (_, until, _)| *until > now);
        }
        while self.entries.len() >= cap {
            let Some((old, seq)) = self.order.pop_front() else {
                break;
            };
            if self.entries.get(&old).is_some_and(|e| e.2 == seq) {
                self.entries.remove(&old);
            }
        }
        // Entries already gone leave stale order slots: drop them when they outnumber.
        if self.order.len() > 2 * cap {
            let entries = &self.entries;
            self.order
                .retain(|(k, s)| entries.get(k).is_some_and(|e| e.2 == *s));
        }
        self.next += 1;
        self.order.push_back((key, self.next));
        self.entries
            .insert(key, (value, Instant::now() + ttl, self.next));
    }
}
