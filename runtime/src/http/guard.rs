//! Checks made before any JSON-RPC is read: `Host` and `Origin` (DNS rebinding), the body
//! size limit, and what the client accepts.

use super::config::HttpConfig;
use bytes::{Buf, BufMut, Bytes, BytesMut};
use http::header::{self, HeaderMap};
use http::{StatusCode, Uri};
use http_body::Body;
use http_body_util::BodyExt as _;
use std::time::Duration;

pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Why a request whose `Host` or `Origin` is not allowed is refused with `403` (2026-07-28
/// § Streamable HTTP, Security: "If the `Origin` header is present and invalid, servers MUST
/// respond with HTTP 403 Forbidden"; a foreign `Host` is the DNS-rebinding signal).
pub(crate) fn check_origin(
    cfg: &HttpConfig,
    uri: &Uri,
    headers: &HeaderMap,
) -> Result<(), &'static str> {
    if !cfg.any_host {
        // HTTP/2 carries the authority in the URI; HTTP/1.1 in `Host`.
        let host = uri
            .authority()
            .map(|a| a.as_str().to_owned())
            .or_else(|| header_str(headers, header::HOST).map(str::to_owned));
        match host {
            Some(h) if host_allowed(&cfg.hosts, &h) => {}
            _ => {
                tracing::debug!("request refused: Host not allowed");
                return Err("Host not allowed");
            }
        }
    }
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
                || origin_authority(&o).is_some_and(|a| host_allowed(&cfg.hosts, a))
        });
    if ok {
        Ok(())
    } else {
        tracing::debug!("request refused: Origin not allowed");
        Err("Origin not allowed")
    }
}

/// `host[:port]` matches an entry with the same host (entry without port) or the same
/// host and port (entry with port), ASCII case-insensitively.
fn host_allowed(allowed: &[String], authority: &str) -> bool {
    let authority = authority.trim().to_ascii_lowercase();
    // `user@host` never appears in Host; refuse it rather than parse around it.
    if authority.is_empty() || authority.contains('@') {
        return false;
    }
    let name = strip_port(&authority);
    allowed
        .iter()
        .any(|a| *a == authority || (strip_port(a) == a.as_str() && *a == name))
}

/// `[::1]:80` → `[::1]`, `host:80` → `host`, `host` → `host`.
fn strip_port(authority: &str) -> &str {
    if let Some(end) = authority.find(']') {
        return &authority[..=end];
    }
    match authority.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => authority,
    }
}

/// The authority of `scheme://authority[/...]`; `None` for `null` and anything else.
fn origin_authority(origin: &str) -> Option<&str> {
    let (_, rest) = origin.split_once("://")?;
    let end = rest.find('/').unwrap_or(rest.len());
    Some(&rest[..end]).filter(|a| !a.is_empty())
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
            let essence = essence.to_ascii_lowercase();
            if matches!(
                essence.as_str(),
                "application/json" | "application/*" | "*/*"
            ) {
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
    let outcome = tokio::time::timeout(timeout, read).await;
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
