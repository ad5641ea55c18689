//! Keys fetched from the issuer (the `auth-remote` feature): the outbound client, issuer
//! discovery (RFC 8414, OpenID Connect Discovery), and [`RemoteKeys`], the cache of the last
//! good key set with its refresh rules.
//!
//! This module knows nothing of JWTs: it caches whatever `parse` makes of the fetched
//! document, so the JWT verifier (its only user) depends on it and not the other way.

pub(crate) mod client;
mod discovery;
#[cfg(test)]
pub(crate) mod test_server;

use client::{Fetcher, check_url};
use http::Uri;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a set is used without a `Cache-Control: max-age`.
const DEFAULT_TTL: Duration = Duration::from_secs(3600);
/// The shortest and longest `max-age` honoured.
const TTL_RANGE: (Duration, Duration) = (Duration::from_secs(300), Duration::from_secs(86_400));
/// How long the last good set is used while refreshing it fails.
const MAX_STALE: Duration = Duration::from_secs(86_400);

/// Where the keys come from.
pub(crate) enum Source {
    /// The JWKS at this URL.
    Url(Uri),
    /// The `jwks_uri` of this issuer's metadata document.
    Discover(String),
}

impl Source {
    /// Checks the URL (or the issuer to discover from).
    pub(crate) fn url(url: &str) -> Result<Source, String> {
        check_url(url).map(Source::Url)
    }
    /// Discovery from `issuer`, whose URL is checked.
    pub(crate) fn discover(issuer: &str) -> Result<Source, String> {
        discovery::metadata_urls(issuer)?;
        Ok(Source::Discover(issuer.to_owned()))
    }
}

/// A parser of the fetched document into the cached value.
pub(crate) type Parse<T> = fn(&[u8]) -> Result<T, String>;

/// The last good value fetched from a [`Source`], refreshed when its time is up and, on
/// demand ([`refresh_after`](Self::refresh_after)), at most once per `min_refresh`; one fetch
/// in flight at a time.
pub(crate) struct RemoteKeys<T> {
    source: Source,
    fetcher: Fetcher,
    parse: Parse<T>,
    min_refresh: Duration,
    state: Mutex<State<T>>,
    flight: tokio::sync::Mutex<()>,
}

struct State<T> {
    current: Option<Current<T>>,
    last_attempt: Option<Instant>,
    jwks_uri: Option<Uri>,
}

struct Current<T> {
    value: Arc<T>,
    fetched_at: Instant,
    ttl: Duration,
}

impl<T> RemoteKeys<T> {
    /// A cache of `source`, empty until the first use.
    pub(crate) fn new(
        source: Source,
        parse: Parse<T>,
        fetch_timeout: Duration,
        min_refresh: Duration,
    ) -> Result<Self, String> {
        Ok(RemoteKeys {
            source,
            fetcher: Fetcher::new(fetch_timeout)?,
            parse,
            min_refresh,
            state: Mutex::new(State {
                current: None,
                last_attempt: None,
                jwks_uri: None,
            }),
            flight: tokio::sync::Mutex::new(()),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State<T>> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The current value: fetched when there is none yet (waiting for a fetch in flight),
    /// refreshed when its time is up (by one caller; the others keep the old value), kept
    /// while refreshing fails, for at most a day.
    pub(crate) async fn current(&self) -> Result<Arc<T>, String> {
        let (value, due) = match &self.state().current {
            Some(c) => (Some(c.value.clone()), c.fetched_at.elapsed() >= c.ttl),
            None => (None, true),
        };
        match value {
            Some(v) if !due => Ok(v),
            Some(_) => {
                if let Ok(_flight) = self.flight.try_lock() {
                    let _ = self.fetch_if_allowed().await;
                }
                match &self.state().current {
                    Some(c) if c.fetched_at.elapsed() < MAX_STALE => Ok(c.value.clone()),
                    _ => Err("the last keys fetched are more than a day old".into()),
                }
            }
            None => {
                let _flight = self.flight.lock().await;
                if let Some(c) = &self.state().current {
                    return Ok(c.value.clone());
                }
                self.fetch_if_allowed().await
            }
        }
    }

    /// A newer value than `seen` (which lacked what a token needs): the one another caller
    /// just fetched, or a new fetch if none was tried within `min_refresh`; `None` otherwise.
    pub(crate) async fn refresh_after(&self, seen: &Arc<T>) -> Option<Arc<T>> {
        let _flight = self.flight.lock().await;
        if let Some(c) = &self.state().current
            && !Arc::ptr_eq(&c.value, seen)
        {
            return Some(c.value.clone());
        }
        self.fetch_if_allowed().await.ok()
    }

    /// Fetches, unless a fetch was tried within `min_refresh`; the caller holds `flight`.
    async fn fetch_if_allowed(&self) -> Result<Arc<T>, String> {
        let jwks_uri = {
            let mut s = self.state();
            if s.last_attempt
                .is_some_and(|t| t.elapsed() < self.min_refresh)
            {
                return Err("the keys were fetched moments ago".into());
            }
            s.last_attempt = Some(Instant::now());
            s.jwks_uri.clone()
        };
        let uri = match (&self.source, jwks_uri) {
            (Source::Url(u), _) => u.clone(),
            (Source::Discover(_), Some(u)) => u,
            (Source::Discover(issuer), None) => {
                let u = discovery::discover(&self.fetcher, issuer)
                    .await
                    .inspect_err(|e| tracing::warn!(issuer, "discovery failed: {e}"))?;
                self.state().jwks_uri = Some(u.clone());
                u
            }
        };
        let fetched = self.fetcher.get(&uri).await.map_err(|e| {
            let e = format!("the JWKS at {uri} {e}");
            tracing::warn!("{e}");
            e
        })?;
        let value = (self.parse)(&fetched.body).map_err(|e| {
            let e = format!("the JWKS at {uri}: {e}");
            tracing::warn!("{e}");
            e
        })?;
        let value = Arc::new(value);
        let ttl = fetched
            .max_age
            .map_or(DEFAULT_TTL, |a| a.clamp(TTL_RANGE.0, TTL_RANGE.1));
        self.state().current = Some(Current {
            value: value.clone(),
            fetched_at: Instant::now(),
            ttl,
        });
        Ok(value)
    }
}
