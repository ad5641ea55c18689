//! Checks made before any JSON-RPC is read: `Host` and `Origin` (DNS rebinding), the body
//! size limit, and what the client accepts.

use super::authority::AllowedHost;
use super::config::HttpConfig;
use bytes::{Buf, BufMut, Bytes, BytesMut};
use http::header::{self, HeaderMap};
use http::{StatusCode, Uri};
use http_body::Body;
use http_body_util::BodyExt as _;
use std::future::Future as _;
use std::task::Poll;
use std::time::Duration;

pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Why a request whose `Host` or `Origin` is not allowed is refused with `403` (2026-07-28
/// § Streamable HTTP, Security: "If the `Origin` header is present and invalid, servers MUST
/// respond with HTTP 403 Forbidden"; a foreign `Host` is the DNS-rebinding signal).
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn check_origin(
    cfg: &HttpConfig,
    uri: &Uri,
    headers: &HeaderMap,
) -> Result<(), &'static str> {
    check_host(cfg, uri, headers)?;
    check_origin_header(cfg, headers)
}

/// The `Host` half of [`check_origin`]: the first check of every request, the metadata
/// document's paths included.
pub(crate) fn check_host(
    cfg: &HttpConfig,
    uri: &Uri,
    headers: &HeaderMap,
) -> Result<(), &'static str> {
    if !cfg.any_host {
        // HTTP/2 carries the authority in the URI; HTTP/1.1 in `Host`.
        let host = uri
            .authority()
            .map(|a| a.as_str())
            .or_else(|| header_str(headers, header::HOST));
        match host {
            Some(h) if host_allowed(&cfg.hosts, h) => {}
            _ => {
                tracing::debug!("request refused: Host not allowed");
                return Err("Host not allowed");
            }
        }
    }
    Ok(())
}

/// The `Origin` half of [`check_origin`] (the metadata document skips it: it is public and
/// meant to be read by browser clients on other origins).
pub(crate) fn check_origin_header(
    cfg: &HttpConfig,
    headers: &HeaderMap,
) -> Result<(), &'static str> {
    if cfg.any_origin {
        return Ok(());
    }
    let mut origins = headers.get_all(header::ORIGIN).iter();
    let Some(origin) = origins.next() else {
        return Ok(());
    };
    let ok = origins.next().is_none()
        && origin.to_str().is_ok_and(|o| {
            let o = o.trim().to_ascii_lowercase();
            cfg.origins.contains(&o)
                || origin_authority(&o).is_some_and(|a| host_allowed(&cfg.hosts, &a))
        });
    if ok {
        Ok(())
    } else {
        tracing::debug!("request refused: Origin not allowed");
        Err("Origin not allowed")
    }
}

/// `host[:port]` matches an entry with the same host (entry without port) or the same
/// host and port (entry with port), ASCII case-insensitively. Anything that is not exactly
/// `host[:port]` (userinfo, text after an IPv6 literal, an empty or oversized port) matches
/// nothing.
pub(crate) fn host_allowed(allowed: &[AllowedHost], authority: &str) -> bool {
    allowed.iter().any(|a| a.admits(authority))
}

/// The authority of an `Origin` that is exactly `scheme://authority` (RFC 6454: no path,
/// query or fragment), parsed by the `http` crate's [`Uri`]; `None`
/// for `null` and anything else.
fn origin_authority(origin: &str) -> Option<String> {
    let uri: Uri = origin.parse().ok()?;
    uri.scheme()?;
    let tail = &origin[origin.find("://")? + 3..];
    let authority = uri.authority()?.as_str();
    // The parser drops a fragment; the text after `://` must be the authority itself.
    (tail == authority).then(|| authority.to_owned())
}

/// A header's value as trimmed text; `None` when absent or not visible ASCII.
pub(crate) fn header_str(headers: &HeaderMap, name: impl header::AsHeaderName) -> Option<&str> {
    headers.get(name)?.to_str().ok().map(str::trim)
}

/// Whether the client accepts `application/json` answers; `false` only when it names media
/// types and none covers JSON (then every answer is sent as SSE).
pub(crate) fn accepts_json(headers: &HeaderMap) -> bool {
    let mut named = false;
    for v in headers.get_all(header::ACCEPT) {
        let Ok(v) = v.to_str() else { continue };
        for item in v.split(',') {
            let essence = item.split(';').next().unwrap_or("").trim();
            named |= !essence.is_empty();
            if ["application/json", "application/*", "*/*"]
                .iter()
                .any(|json| essence.eq_ignore_ascii_case(json))
            {
                return true;
            }
        }
    }
    !named
}

/// How much of a body over the limit is kept, so that a 2025-11-25 answer too large to take
/// can still fail its question at once (its `id` is read from these bytes).
pub(crate) const HEAD_BYTES: usize = 64 * 1024;

/// Why a body was not read: the status and reason to refuse it with, and, for a body over the
/// limit, its first bytes (at most [`HEAD_BYTES`]).
#[derive(Debug)]
pub(crate) struct Unread {
    pub status: StatusCode,
    pub reason: &'static str,
    pub head: Bytes,
}

/// Reads the whole body, refusing more than `limit` bytes with `413` (a body whose
/// `Content-Length` says so is read only up to [`HEAD_BYTES`]) and a body still incomplete
/// after `timeout` with `408`.
pub(crate) async fn read_body<B>(
    headers: &HeaderMap,
    body: B,
    limit: usize,
    timeout: Duration,
) -> Result<Bytes, Unread>
where
    B: Body + Send,
    B::Data: Send,
    B::Error: Into<BoxError>,
{
    let declared = header_str(headers, header::CONTENT_LENGTH).and_then(|v| v.parse::<u64>().ok());
    let declared_too_large = declared.is_some_and(|n| n > limit as u64);
    let mut buf = BytesMut::new();
    let read = async {
        let mut body = std::pin::pin!(body);
        while let Some(frame) = body.frame().await {
            let Ok(data) = frame.map_err(Into::into)?.into_data() else {
                continue;
            };
            let over = declared_too_large || buf.len() + data.remaining() > limit;
            if over {
                let room = HEAD_BYTES.saturating_sub(buf.len()).min(data.remaining());
                buf.put(data.take(room));
                if !declared_too_large || buf.len() >= HEAD_BYTES {
                    return Ok::<bool, BoxError>(false);
                }
            } else {
                buf.put(data);
            }
        }
        Ok(!declared_too_large)
    };
    let too_large = |head: Bytes| Unread {
        status: StatusCode::PAYLOAD_TOO_LARGE,
        reason: "message exceeds the size limit",
        head,
    };
    // A body that is all there already (hyper has usually read it with the head) is taken
    // without a timer: making one reads the clock and clones the runtime's handle, an atomic
    // on a counter every worker shares. Only a body still on its way gets the deadline.
    let outcome = {
        let mut read = std::pin::pin!(read);
        match std::future::poll_fn(|cx| Poll::Ready(read.as_mut().poll(cx))).await {
            Poll::Ready(done) => Ok(done),
            Poll::Pending => tokio::time::timeout(timeout, read).await,
        }
    };
    if let Ok(Ok(true)) = outcome {
        return Ok(buf.freeze());
    }
    buf.truncate(HEAD_BYTES);
    match outcome {
        Ok(Ok(_)) => Err(too_large(buf.freeze())),
        Err(_) if declared_too_large => Err(too_large(buf.freeze())),
        Err(_) => Err(Unread {
            status: StatusCode::REQUEST_TIMEOUT,
            reason: "the request body did not arrive in time",
            head: Bytes::new(),
        }),
        Ok(Err(e)) => {
            tracing::debug!(error = %e, "request body read failed");
            Err(Unread {
                status: StatusCode::BAD_REQUEST,
                reason: "the request body could not be read",
                head: Bytes::new(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::authority;
    use super::*;

    fn defaults() -> Vec<AllowedHost> {
        HttpConfig::default().hosts
    }

    #[test]
    fn local_hosts_with_any_port() {
        let d = defaults();
        for ok in [
            "localhost",
            "LOCALHOST:8080",
            "127.0.0.1:1",
            "[::1]:3000",
            "[::1]",
        ] {
            assert!(host_allowed(&d, ok), "{ok}");
        }
        for bad in [
            "evil.example.com",
            "localhost.evil.com",
            "127.0.0.1.nip.io:80",
            "",
            "a@localhost",
        ] {
            assert!(!host_allowed(&d, bad), "{bad}");
        }
        let with_port = vec![AllowedHost::new("api.example.com:443")];
        assert!(host_allowed(&with_port, "api.example.com:443"));
        assert!(!host_allowed(&with_port, "api.example.com:80"));
        // A host allowed in capitals matches in any case (`AllowedHost` lowercases it).
        let upper = HttpConfig::default().allow_host("API.Example.com").hosts;
        assert!(host_allowed(&upper, "api.example.com:8443"));
        assert!(host_allowed(&upper, "Api.EXAMPLE.com"));
    }

    /// Hostile `Host` values: text after an IPv6 literal, userinfo, bad ports, paths, spaces,
    /// lookalikes. Each is refused under the defaults.
    #[test]
    fn hostile_hosts_are_refused() {
        let d = defaults();
        for bad in [
            "[::1]evil.example",
            "[::1]evil.example:80",
            "[::1].evil.example",
            "[::1]:80evil",
            "[::1]:80:80",
            "[::1]:",
            "[::1]:99999",
            "[::1",
            "::1]",
            "[::1]]",
            "[[::1]]",
            "[evil.example]",
            "[::1%25lo]",
            "localhost:",
            "localhost:80:80",
            "localhost:+80",
            "localhost:8o",
            "localhost/evil",
            "localhost?x",
            "localhost#x",
            "localhost evil",
            "user:pw@localhost",
            "@localhost",
            "localhost.",
            "127.0.0.1evil",
            "127.0.0.1.evil.example",
            "localhost\\evil",
            "[::1] ",
        ] {
            assert!(!host_allowed(&d, bad), "{bad:?}");
        }
    }

    #[test]
    fn hostile_origins_are_refused() {
        let cfg = HttpConfig::default();
        let check = |origin: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::HOST, "localhost".parse().unwrap());
            h.insert(header::ORIGIN, origin.parse().unwrap());
            check_origin(&cfg, &Uri::from_static("/mcp"), &h)
        };
        for ok in [
            "http://localhost",
            "http://localhost:3000",
            "https://127.0.0.1",
            "http://[::1]:8080",
            "HTTP://LOCALHOST",
        ] {
            assert_eq!(check(ok), Ok(()), "{ok}");
        }
        for bad in [
            "http://[::1]evil.example",
            "http://[::1]evil.example:80",
            "http://[::1].evil.example",
            "http://localhost.evil.example",
            "http://localhost@evil.example",
            "http://evil.example@localhost",
            "http://evil.example#@localhost",
            "http://localhost:80evil",
            "http://localhost/",
            "http://localhost/path",
            "http://localhost?x",
            "localhost",
            "//localhost",
            "http://",
            "null",
            "http://evil.example",
        ] {
            assert_eq!(check(bad), Err("Origin not allowed"), "{bad}");
        }
    }

    /// `admits` (no parse, no allocation) accepts what the parsing definition accepts: `split`
    /// the text, then compare host and port.
    #[test]
    fn admits_is_split_then_match() {
        let mut allowed = defaults();
        allowed.extend(
            [
                "api.example.com:443",
                "API.Example.com",
                "[::1]:8080",
                "a_b",
            ]
            .map(AllowedHost::new),
        );
        let texts = [
            "localhost",
            "LOCALHOST:8080",
            "LocalHost:0080",
            "localhost:65535",
            "localhost:65536",
            "localhost:0",
            "localhost:00000000000000000080",
            "127.0.0.1:1",
            "127.0.0.1",
            "[::1]",
            "[::1]:3000",
            "[::1]:8080",
            "[::1]:80",
            "[::1]:",
            "[::1]:99999",
            "[::1]evil",
            "[::1]:80evil",
            "[::1] ",
            "[0::1]",
            "localhost:",
            "localhost:80:80",
            "localhost:+80",
            "localhost:-1",
            "localhost:8o",
            "localhost/evil",
            "localhost.",
            "localhost.evil.com",
            "user@localhost",
            "@localhost",
            "localhost evil",
            "evil.example.com",
            "",
            "api.example.com:443",
            "api.example.com:80",
            "api.example.com",
            "API.EXAMPLE.COM:443",
            "api.example.com:8443",
            "a_b",
            "A_B:1",
            "a_b_c",
            "localhost\u{e9}",
            "localhosté",
            "é",
            "127.0.0.1.nip.io:80",
        ];
        for a in &allowed {
            for text in texts {
                let by_split = authority::split(text).is_some_and(|(h, p)| a.matches(&h, p));
                assert_eq!(a.admits(text), by_split, "{a:?} and {text:?}");
            }
        }
    }

    #[test]
    fn origin_authorities() {
        assert_eq!(
            origin_authority("http://127.0.0.1:9").as_deref(),
            Some("127.0.0.1:9")
        );
        assert_eq!(origin_authority("http://127.0.0.1:9/x"), None);
        assert_eq!(origin_authority("null"), None);
        assert_eq!(
            authority::split("[::1]:80"),
            Some(("[::1]".to_owned(), Some(80)))
        );
    }

    #[test]
    fn accept_parsing() {
        let mut h = HeaderMap::new();
        assert!(accepts_json(&h));
        h.insert(header::ACCEPT, "text/event-stream".parse().unwrap());
        assert!(!accepts_json(&h));
        h.insert(
            header::ACCEPT,
            "text/event-stream, application/json;q=0.9".parse().unwrap(),
        );
        assert!(accepts_json(&h));
    }
}
