//! The outbound HTTPS client of the `auth-remote` feature: `https` only (plain `http` on a
//! loopback host), one total deadline per fetch, a body limit, no redirects, JSON only.

use bytes::Bytes;
use http::{Request, StatusCode, Uri, header};
use http_body_util::{BodyExt, Full, Limited};
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use std::time::Duration;

/// The largest document fetched (a JWKS, a metadata document), in bytes.
pub(crate) const MAX_DOCUMENT_BYTES: usize = 256 * 1024;

/// A URL the client may fetch: absolute, `https`, or `http` on a loopback host; no userinfo.
pub(crate) fn check_url(url: &str) -> Result<Uri, String> {
    let uri: Uri = url.parse().map_err(|_| format!("{url:?} is not a URL"))?;
    let host = uri.host().ok_or_else(|| format!("{url:?} has no host"))?;
    if uri.authority().is_some_and(|a| a.as_str().contains('@')) {
        return Err(format!("{url:?} carries a user name or password"));
    }
    match uri.scheme_str() {
        Some("https") => Ok(uri),
        Some("http") if is_loopback(host) => Ok(uri),
        _ => Err(format!(
            "{url:?} must be https (http only on a loopback host)"
        )),
    }
}

fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|a| a.is_loopback())
}

/// A fetched document: its body and how long it may be cached (`Cache-Control: max-age`).
pub(crate) struct Fetched {
    pub(crate) body: Bytes,
    pub(crate) max_age: Option<Duration>,
}

/// Why a fetch failed (for the log; the client of the resource server sees a general text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FetchError {
    /// The server answered with this status (a redirect included: none is followed).
    Status(u16),
    /// No answer within the deadline.
    Timeout,
    /// The body is larger than the limit.
    TooLarge,
    /// The connection or the exchange failed.
    Io(String),
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FetchError::Status(s) => write!(f, "answered HTTP {s}"),
            FetchError::Timeout => f.write_str("did not answer in time"),
            FetchError::TooLarge => write!(f, "sent more than {MAX_DOCUMENT_BYTES} bytes"),
            FetchError::Io(e) => write!(f, "failed: {e}"),
        }
    }
}

/// The client, built once per verifier.
#[derive(Clone)]
pub(crate) struct Fetcher {
    client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
    timeout: Duration,
}

impl Fetcher {
    /// A client whose every fetch ends within `timeout`: rustls with ring's provider, passed
    /// explicitly (no process-wide default to depend on), and Mozilla's roots compiled in.
    pub(crate) fn new(timeout: Duration) -> Result<Fetcher, String> {
        let connector = HttpsConnectorBuilder::new()
            .with_provider_and_webpki_roots(rustls::crypto::ring::default_provider())
            .map_err(|e| format!("the TLS configuration: {e}"))?
            .https_or_http()
            .enable_http1()
            .build();
        Ok(Fetcher {
            client: Client::builder(TokioExecutor::new()).build(connector),
            timeout,
        })
    }

    /// GETs `uri` as JSON.
    pub(crate) async fn get(&self, uri: &Uri) -> Result<Fetched, FetchError> {
        let request = Request::get(uri.clone())
            .header(header::ACCEPT, "application/json")
            .body(Full::new(Bytes::new()))
            .map_err(|e| FetchError::Io(e.to_string()))?;
        self.send(request, MAX_DOCUMENT_BYTES).await
    }

    /// Sends `request` and reads the whole answer (at most `limit` bytes) within the deadline;
    /// only a 200 is an answer.
    pub(crate) async fn send(
        &self,
        request: Request<Full<Bytes>>,
        limit: usize,
    ) -> Result<Fetched, FetchError> {
        let exchange = async {
            let response = self
                .client
                .request(request)
                .await
                .map_err(|e| FetchError::Io(e.to_string()))?;
            if response.status() != StatusCode::OK {
                return Err(FetchError::Status(response.status().as_u16()));
            }
            let max_age = response
                .headers()
                .get_all(header::CACHE_CONTROL)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .find_map(max_age);
            let body = Limited::new(response.into_body(), limit)
                .collect()
                .await
                .map_err(|e| match e.downcast::<http_body_util::LengthLimitError>() {
                    Ok(_) => FetchError::TooLarge,
                    Err(e) => FetchError::Io(e.to_string()),
                })?
                .to_bytes();
            Ok(Fetched { body, max_age })
        };
        tokio::time::timeout(self.timeout, exchange)
            .await
            .unwrap_or(Err(FetchError::Timeout))
    }
}

/// The `max-age` of one `Cache-Control` value.
fn max_age(value: &str) -> Option<Duration> {
    value.split(',').find_map(|d| {
        let (name, secs) = d.trim().split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("max-age")
            .then(|| secs.trim().parse().ok())
            .flatten()
            .map(Duration::from_secs)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_https_or_loopback_http_is_fetched() {
        for ok in [
            "https://id.example/jwks",
            "http://127.0.0.1:8080/jwks",
            "http://localhost/x",
            "http://[::1]:9/x",
        ] {
            assert!(check_url(ok).is_ok(), "{ok}");
        }
        for bad in [
            "http://id.example/jwks",
            "ftp://id.example/",
            "/jwks",
            "https://user:pw@id.example/",
            "http://127.0.0.1.evil.example/",
        ] {
            assert!(check_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn max_age_is_read_from_cache_control() {
        assert_eq!(
            max_age("public, max-age=600"),
            Some(Duration::from_secs(600))
        );
        assert_eq!(max_age("MAX-AGE = 5"), Some(Duration::from_secs(5)));
        assert_eq!(max_age("no-cache"), None);
        assert_eq!(max_age("max-age=x"), None);
    }
}
