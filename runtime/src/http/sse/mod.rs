//! The HTTP+SSE transport of 2024-11-05 (2024-11-05 § Transports, HTTP with SSE), beside
//! Streamable HTTP on the same service: a GET of the stream path opens a session's SSE stream,
//! whose first event (`endpoint`) names `<messages path>?session_id=<id>`; the client POSTs
//! each JSON-RPC message there (202), and every answer, notification and server-to-client
//! request of the session goes to it as a `message` event on the stream.
//!
//! A session is served as a stdio connection is: its `initialize` negotiates any handshake
//! revision, its requests run in the engine with the stream as their outbound (so sampling
//! and roots questions travel on it, and the client POSTs their answers back), the list
//! changes it advertises reach it, `notifications/cancelled` cancels. What differs is what
//! the server holds for a client it cannot see: the stream's queue is bounded and a message
//! that waits `sse_stall_timeout` for the client to read ends the session; a session idle for
//! `session_idle_timeout` ends; at most `max_in_flight` of its requests run at once. When the
//! stream ends the session is gone (later POSTs get 404), its questions fail, and requests
//! still running get the drain time to finish, then are cancelled (as stdio's at end of
//! input): their answers have nowhere to go.

mod stream;
mod table;

pub(crate) use table::SseSessions;

use super::body::{self, McpBody};
use super::endpoint::Endpoint;
use super::flights::Refused;
use super::guard::{self, BoxError};
use super::session::{Limits, OpenError, client_of};
use crate::backchannel::Outbound;
use crate::batch_reply::BatchPart;
use crate::cx::Principal;
use crate::dispatch::{Conn, Engine, Route};
use crate::era::{self, Era, ModernMeta, Signals};
use crate::handler::Handler;
use crate::notify::filter::Advertised;
use crate::protocol::{self, Error, Inbound, Message, Method, Request};
use crate::session::LegacySession;
use http::header::{self, HeaderValue};
use http::{Response, StatusCode};
use http_body::Body;
use std::net::IpAddr;
use std::sync::Arc;
use stream::{Deadlines, End};
use table::{OpenSseError, SseSession};
use tokio::sync::{broadcast, mpsc};
use tokio_util::sync::CancellationToken;

/// Messages a session may queue ahead of a client that is slow to read, before the next one
/// waits (for at most `sse_stall_timeout`).
const QUEUE: usize = 32;

/// Frames between the queue and the connection.
const FRAMES: usize = 4;

/// GET of the stream path: opens a session and its stream.
pub(crate) fn open<H: Handler>(
    ep: &Arc<Endpoint<H>>,
    who: Option<Principal>,
    peer: Option<IpAddr>,
    close: Option<CancellationToken>,
) -> Response<McpBody> {
    let Some(paths) = &ep.config.sse else {
        return body::status(StatusCode::NOT_FOUND);
    };
    let cfg = &ep.config;
    let (client, limits) = (client_of(who.as_ref(), peer), Limits::of(cfg));
    let owner = who.as_ref().map(|p| p.key().to_owned());
    let (id, session, rx) = match ep.sse.open(owner, client, limits, QUEUE) {
        Ok(opened) => opened,
        Err(e) => return refused(e, cfg.max_sessions, cfg.max_sessions_per_client),
    };
    let endpoint = format!("{}?session_id={id}", paths.messages);
    let deadlines = Deadlines {
        keep_alive: cfg.keep_alive,
        stall: cfg.sse_stall,
        idle: cfg.session_idle,
    };
    let (frames, body) = mpsc::channel(FRAMES);
    let ep = ep.clone();
    tokio::spawn(async move {
        let end = stream::pump(&session, &endpoint, rx, &frames, deadlines, who.as_ref()).await;
        drop(frames);
        ep.sse.remove(&id);
        session.close();
        match end {
            End::Stalled => {
                tracing::warn!(
                    stall = ?deadlines.stall,
                    "an HTTP+SSE client stopped reading its stream: session ended"
                );
                // The end of the response would wait for the client as the message did:
                // the connection closes instead (under `serve`; a server the service is
                // mounted in keeps it until its own limits end it).
                if let Some(close) = close {
                    close.cancel();
                }
            }
            _ => tracing::debug!(?end, "HTTP+SSE session ended"),
        }
        // Requests still running can no longer be answered: like stdio's at end of input,
        // they get the drain time, then are cancelled.
        if session.busy() {
            tokio::time::sleep(ep.config.drain).await;
            session.flights().cancel_all();
        }
    });
    body::sse(body)
}

/// The refusal of a stream a limit or the shutdown keeps from opening.
fn refused(e: OpenSseError, max: usize, per_client: usize) -> Response<McpBody> {
    let (status, reason) = match e {
        OpenSseError::Limit(OpenError::ClientFull) => {
            tracing::warn!(
                max = per_client,
                "a client's HTTP+SSE session limit reached"
            );
            (
                StatusCode::TOO_MANY_REQUESTS,
                "this client holds as many HTTP+SSE sessions as it may; close one first",
            )
        }
        OpenSseError::Limit(OpenError::Full) => {
            tracing::warn!(max, "HTTP+SSE session limit reached");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "the server holds as many HTTP+SSE sessions as it may; try again later",
            )
        }
        OpenSseError::Limit(OpenError::NoRandom) => {
            tracing::error!("no random number generator: cannot mint a session id");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "the session could not be opened",
            )
        }
        OpenSseError::Draining => (
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is shutting down",
        ),
    };
    body::refuse(status, reason)
}

/// A method the path does not serve: `405` naming the one it does.
pub(crate) fn wrong_method(allow: &'static str) -> Response<McpBody> {
    let mut r = body::refuse(
        StatusCode::METHOD_NOT_ALLOWED,
        "this path of the HTTP+SSE transport serves another method",
    );
    r.headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static(allow));
    r
}

/// The `session_id` of a POST's query.
fn session_id(query: Option<&str>) -> Option<&str> {
    query?
        .split('&')
        .find_map(|pair| pair.strip_prefix("session_id="))
        .filter(|id| !id.is_empty())
}

/// POST of the messages path: one JSON-RPC message of the session its query names.
pub(crate) async fn post<H, B>(
    ep: Arc<Endpoint<H>>,
    parts: http::request::Parts,
    body: B,
    who: Option<Principal>,
) -> Response<McpBody>
where
    H: Handler,
    B: Body + Send,
    B::Data: Send,
    B::Error: Into<BoxError>,
{
    let Some(sid) = session_id(parts.uri.query()) else {
        return body::refuse(StatusCode::BAD_REQUEST, "session_id is required");
    };
    let Some(session) = ep.sse.get(sid, who.as_ref().map(Principal::key)) else {
        return body::refuse(StatusCode::NOT_FOUND, "unknown or ended session");
    };
    let bytes = match guard::read_body(&parts.headers, body, ep.limit, ep.config.body_timeout).await
    {
        Ok(b) => b,
        Err(unread) => {
            answer_too_large(&session, &unread.head, ep.limit);
            return body::refuse(unread.status, unread.reason);
        }
    };
    let batches = session.legacy().is_some_and(|s| s.revision.has_batches());
    if batches && protocol::is_batch_bytes(&bytes) {
        return batch(&ep, &session, &bytes, who).await;
    }
    let msg = match Inbound::parse(&bytes) {
        Ok(m) => m,
        Err(rej) => return body::error(StatusCode::BAD_REQUEST, rej.id.as_ref(), &rej.error),
    };
    let Some(out) = session.outbound() else {
        return closing(&ep);
    };
    match msg {
        Inbound::Request(req) => request(&ep, &session, out, req, who, None).await,
        other => {
            take(&session, other);
            body::accepted()
        }
    }
}

/// A 2025-03-26 batch POSTed to a session of that revision: each entry is taken as a message
/// of its own, and the responses to its requests go to the stream together, as one array, when
/// the last is answered (`batch_reply`). A request the token does not allow refuses the whole
/// batch, before any of it runs, as a single one is refused.
async fn batch<H: Handler>(
    ep: &Endpoint<H>,
    session: &Arc<SseSession>,
    bytes: &[u8],
    who: Option<Principal>,
) -> Response<McpBody> {
    let entries = match std::str::from_utf8(bytes)
        .map_err(Error::parse_error)
        .and_then(|text| protocol::batch_entries(text).map_err(|rej| rej.error))
    {
        Ok(entries) => entries,
        Err(e) => return body::error(StatusCode::BAD_REQUEST, None, &e),
    };
    let messages: Vec<Result<Inbound, Message>> = entries
        .iter()
        .map(|e| Inbound::parse_str(e).map_err(|rej| Message::error(rej.id.as_ref(), &rej.error)))
        .collect();
    #[cfg(feature = "auth")]
    if let Some(p) = &ep.protection {
        for m in &messages {
            if let Ok(Inbound::Request(req)) = m
                && let Some(refused) = p.check_target(&*ep.engine.handler, req, who.as_ref())
            {
                return refused;
            }
        }
    }
    let Some(out) = session.outbound() else {
        return closing(ep);
    };
    let answer = BatchPart::new(messages.len(), Outbound::Open(out.clone()));
    for m in messages {
        match m {
            Ok(Inbound::Request(req)) if req.method == Method::Initialize => {
                let e = Error::invalid_request("`initialize` must not be part of a batch");
                answer
                    .part()
                    .done(Some(Message::error(Some(&req.id), &e)))
                    .await;
            }
            Ok(Inbound::Request(req)) => {
                let part = Some(answer.part());
                request(ep, session, out.clone(), req, who.clone(), part).await;
            }
            Ok(other) => take(session, other),
            Err(refusal) => answer.part().done(Some(refusal)).await,
        }
    }
    answer.done(None).await;
    body::accepted()
}

/// Takes a message of the session that is no request: `notifications/cancelled` cancels a
/// request in flight, and the answer to a server-to-client request made on the stream goes
/// to it (one that is no valid answer fails its question at once).
fn take(session: &SseSession, msg: Inbound) {
    match msg {
        Inbound::Request(_) => {}
        Inbound::Notification { method, params } => {
            if method == Method::Cancelled
                && let Some(id) = protocol::cancelled_request(params.as_ref())
            {
                session.flights().cancel(&id);
            }
        }
        Inbound::Response { id, outcome } => {
            let routed = session
                .legacy()
                .is_some_and(|s| s.back.complete(&id, outcome));
            if !routed {
                tracing::debug!(%id, "response to no pending request ignored");
            }
        }
        Inbound::BadResponse { id, reason } => {
            let failed = session
                .legacy()
                .is_some_and(|s| s.back.fail(&id, reason.clone()));
            tracing::warn!(%id, %reason, failed, "a response that is no valid answer");
        }
    }
}

/// A POST to a session that is closing: its stream is gone (404), or the server is shutting
/// down (503).
fn closing<H>(ep: &Endpoint<H>) -> Response<McpBody> {
    if ep.sse.draining() {
        body::refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is shutting down",
        )
    } else {
        body::refuse(StatusCode::NOT_FOUND, "unknown or ended session")
    }
}

/// A body over the size limit, of which `head` was read: when it starts like the answer to a
/// question the session is waiting for, that question fails at once.
fn answer_too_large(session: &SseSession, head: &[u8], limit: usize) {
    let (Some(legacy), false) = (session.legacy(), head.is_empty()) else {
        return;
    };
    let head = protocol::head_of(head);
    if let (Some(id), false) = (head.id, head.method) {
        let why = format!("the answer is larger than the limit of {limit} bytes");
        if legacy.back.fail(&id, why) {
            tracing::warn!(%id, "an answer over the size limit failed its question");
        }
    }
}

/// A request: `initialize` opens (or replaces) the handshake session; anything else runs in
/// its own task and is answered on the stream, or into its batch's answer (`part`). The POST
/// is accepted once the request is registered (or its refusal queued).
async fn request<H: Handler>(
    ep: &Endpoint<H>,
    session: &Arc<SseSession>,
    out: mpsc::Sender<Message>,
    mut req: Request,
    who: Option<Principal>,
    part: Option<BatchPart>,
) -> Response<McpBody> {
    let signals = Signals {
        session: session.legacy().is_some(),
        ..Signals::of_request(&req)
    };
    let route = match (era::select(signals), session.legacy()) {
        (Era::Initialize, _) => return initialize(ep, session, out, &req).await,
        (Era::Session, Some(s)) => Route::Legacy(s),
        // Before `initialize`: what stdio does with a request outside a session.
        _ => Route::Modern(ModernMeta::check(req.params.meta.take())),
    };
    #[cfg(feature = "auth")]
    if let Some(p) = &ep.protection
        && let Some(refused) = p.check_target(&*ep.engine.handler, &req, who.as_ref())
    {
        return refused;
    }
    let cancel = CancellationToken::new();
    let max = ep.engine.config.max_in_flight;
    let serial = match session.flights().register(&req.id, &cancel, max) {
        Ok(serial) => serial,
        Err(why) => {
            let e = match why {
                Refused::Duplicate => {
                    Error::invalid_request("a request with this id is already in flight")
                }
                Refused::Full => Error::internal(format!(
                    "This session already runs {max} requests, the most it may; wait for an \
                     answer before sending more"
                )),
            };
            let refusal = Message::error(Some(&req.id), &e);
            return match part {
                Some(part) => {
                    part.done(Some(refusal)).await;
                    body::accepted()
                }
                None => queue(ep, out, refusal).await,
            };
        }
    };
    let engine = ep.engine.clone();
    let session = session.clone();
    tokio::spawn(async move {
        let id = req.id.clone();
        let conn = Conn {
            out: Outbound::Open(out),
            principal: who,
            cancel,
            // The POST was answered already: a step-up travels as the request's error.
            step_up: None,
        };
        let reply = engine.handle(req, route, &conn).await;
        session.flights().finish(&id, serial);
        let reply = reply.filter(|_| !conn.cancel.is_cancelled());
        match part {
            Some(part) => part.done(reply).await,
            None => {
                if let Some(msg) = reply {
                    conn.out.send(msg).await;
                }
            }
        }
    });
    body::accepted()
}

/// Queues `msg` on the stream and accepts the POST; `404`/`503` when the stream closed first.
async fn queue<H>(ep: &Endpoint<H>, out: mpsc::Sender<Message>, msg: Message) -> Response<McpBody> {
    match out.send(msg).await {
        Ok(()) => body::accepted(),
        Err(_) => closing(ep),
    }
}

/// `initialize`: opens the session's handshake session (replacing one a former `initialize`
/// opened, as on stdio) and answers on the stream.
async fn initialize<H: Handler>(
    ep: &Endpoint<H>,
    session: &SseSession,
    out: mpsc::Sender<Message>,
    req: &Request,
) -> Response<McpBody> {
    let answer = match ep.engine.initialize(req) {
        Ok((result, opened)) => {
            let opened = Arc::new(opened);
            let stop = session.set_legacy(opened.clone());
            forward_changes(&ep.engine, opened, out.clone(), stop);
            Message::response(&req.id, &result)
        }
        Err(e) => Message::error(Some(&req.id), &e),
    };
    queue(ep, out, answer).await
}

/// The list changes the server advertises and updates of the resources the session
/// subscribed to go to its stream, as they go to a stdio session, until `stop`.
fn forward_changes<H: Handler>(
    engine: &Engine<H>,
    session: Arc<LegacySession>,
    out: mpsc::Sender<Message>,
    stop: CancellationToken,
) {
    let mut events = engine.hub.subscribe();
    let adv = Advertised::of(&engine.config.info.capabilities);
    tokio::spawn(async move {
        loop {
            tokio::select! {
                biased;
                _ = stop.cancelled() => return,
                ev = events.recv() => match ev {
                    Ok(change) if session.wants(adv, &change) => {
                        if out.send(change.to_message(None)).await.is_err() {
                            return;
                        }
                    }
                    Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => return,
                },
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::session_id;

    #[test]
    fn the_session_id_is_read_from_the_query() {
        assert_eq!(session_id(Some("session_id=ab12")), Some("ab12"));
        assert_eq!(session_id(Some("x=1&session_id=ab12")), Some("ab12"));
        assert_eq!(session_id(Some("session_id=")), None);
        assert_eq!(session_id(Some("sessionId=ab12")), None);
        assert_eq!(session_id(None), None);
    }
}
