//! Response bodies (one JSON object, or an SSE stream fed by a channel) and the response
//! builders every path shares.

use crate::protocol::Message;
use bytes::Bytes;
use http::header::{self, HeaderValue};
use http::{Response, StatusCode};
use http_body::{Body, Frame, SizeHint};
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::sync::mpsc;

use crate::protocol::{Error, RequestId, code};

/// The body of every response of the MCP endpoint.
#[derive(Debug)]
pub struct McpBody {
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    Full(Option<Bytes>),
    /// SSE: frames come from a pump task; dropping the body closes the channel, which the pump
    /// sees as the client going away (and, on 2026-07-28, as cancellation).
    Stream(mpsc::Receiver<Bytes>),
}

impl McpBody {
    /// An empty body.
    pub fn empty() -> Self {
        McpBody {
            kind: Kind::Full(None),
        }
    }
    pub(crate) fn full(bytes: impl Into<Bytes>) -> Self {
        McpBody {
            kind: Kind::Full(Some(bytes.into())),
        }
    }
    pub(crate) fn stream(rx: mpsc::Receiver<Bytes>) -> Self {
        McpBody {
            kind: Kind::Stream(rx),
        }
    }
}

impl Body for McpBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match &mut self.get_mut().kind {
            Kind::Full(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            Kind::Stream(rx) => rx.poll_recv(cx).map(|o| o.map(|b| Ok(Frame::data(b)))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self.kind, Kind::Full(None))
    }

    fn size_hint(&self) -> SizeHint {
        match &self.kind {
            Kind::Full(b) => SizeHint::with_exact(b.as_ref().map_or(0, |b| b.len() as u64)),
            Kind::Stream(_) => SizeHint::default(),
        }
    }
}

/// One SSE event carrying one JSON-RPC message on a single `data:` line (the conformance
/// client parses line by line; serde_json never emits a raw newline).
pub(crate) fn sse_event(msg: &Message) -> Bytes {
    Bytes::from(format!("data: {}\n\n", msg.as_str()))
}

/// An SSE comment: keeps intermediaries and idle timeouts from closing a quiet stream
/// (2026-07-28 § Streamable HTTP, Receiving Messages).
pub(crate) fn sse_keep_alive() -> Bytes {
    Bytes::from_static(b":\n\n")
}

/// The HTTP status of a modern JSON-RPC answer (2026-07-28 § Streamable HTTP, Request
/// Metadata and Server Validation): header, version, capability and framing errors are 400,
/// an unknown method is 404, everything else (results and ordinary errors) is 200.
pub(crate) fn modern_status(msg: &Message) -> StatusCode {
    match msg.error_code() {
        Some(code::METHOD_NOT_FOUND) => StatusCode::NOT_FOUND,
        Some(
            code::HEADER_MISMATCH
            | code::MISSING_REQUIRED_CLIENT_CAPABILITY
            | code::UNSUPPORTED_PROTOCOL_VERSION
            | code::PARSE_ERROR
            | code::INVALID_REQUEST,
        ) => StatusCode::BAD_REQUEST,
        _ => StatusCode::OK,
    }
}

/// A `application/json` response carrying one JSON-RPC message.
pub(crate) fn json(status: StatusCode, msg: Message) -> Response<McpBody> {
    let bytes = msg.into_string().into_bytes();
    let mut r = Response::new(McpBody::full(bytes));
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

/// A JSON-RPC error response with `status`; `id` is omitted when it could not be read.
pub(crate) fn error(status: StatusCode, id: Option<&RequestId>, e: &Error) -> Response<McpBody> {
    json(status, Message::error(id, e))
}

/// A transport-level refusal (no JSON-RPC message was read): a `-32600` error without `id`
/// whose `data.reason` says why, so a client can tell it from an unrelated server's error.
pub(crate) fn refuse(status: StatusCode, reason: &str) -> Response<McpBody> {
    error(status, None, &Error::invalid_request(reason))
}

/// `202 Accepted`, no body: a notification or a client response was taken.
pub(crate) fn accepted() -> Response<McpBody> {
    let mut r = Response::new(McpBody::empty());
    *r.status_mut() = StatusCode::ACCEPTED;
    r
}

/// An empty response with `status`.
pub(crate) fn status(status: StatusCode) -> Response<McpBody> {
    let mut r = Response::new(McpBody::empty());
    *r.status_mut() = status;
    r
}

/// `405` for GET/DELETE without a live 2025-11-25 session and for other methods.
pub(crate) fn method_not_allowed() -> Response<McpBody> {
    let mut r = refuse(
        StatusCode::METHOD_NOT_ALLOWED,
        "only POST is served without a 2025-11-25 session",
    );
    r.headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("POST"));
    r
}

/// The head of an SSE response; the body follows from `rx`.
pub(crate) fn sse(rx: mpsc::Receiver<Bytes>) -> Response<McpBody> {
    let mut r = Response::new(McpBody::stream(rx));
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    // 2026-07-28 § Streamable HTTP: "servers SHOULD include the `X-Accel-Buffering: no` header".
    h.insert("x-accel-buffering", HeaderValue::from_static("no"));
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn statuses_follow_the_error_code() {
        let err = |code: i64| {
            let mut e = Error::internal("x");
            e.code = code;
            Message::error(Some(&RequestId::Number(1)), &e)
        };
        assert_eq!(modern_status(&err(-32601)), StatusCode::NOT_FOUND);
        for c in [-32020, -32021, -32022] {
            assert_eq!(modern_status(&err(c)), StatusCode::BAD_REQUEST);
        }
        assert_eq!(modern_status(&err(-32602)), StatusCode::OK);
        let ok = crate::protocol::write(&json!({})).expect("writes");
        let ok = Message::response(&RequestId::Number(1), &ok);
        assert_eq!(modern_status(&ok), StatusCode::OK);
    }

    #[test]
    fn events_are_single_lines() {
        let e = sse_event(&Message::of(&json!({"a": "line\nbreak"})));
        assert_eq!(&e[..], b"data: {\"a\":\"line\\nbreak\"}\n\n");
    }
}
