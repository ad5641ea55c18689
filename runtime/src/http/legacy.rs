//! The 2025-11-25 path: sessions opened by `initialize`, requests answered on the POST's SSE
//! stream (server-to-client requests travel there too), client responses and notifications
//! POSTed back (202), the standalone GET stream for unrelated messages (list changes,
//! resource updates), DELETE to end a session (2025-11-25 § Transports, Streamable HTTP).

use super::body::{self, McpBody};
use super::endpoint::Endpoint;
use super::exchange::{Exchange, Job, Opts, Served, single_event, ticker};
use super::headers::{self, PROTOCOL_VERSION, SESSION_ID};
use super::session::{Entry, InFlight, Limits, OpenError, client_of};
use crate::cx::Principal;
use crate::dispatch::Route;
use crate::handler::Handler;
use crate::identity::token_expiry;
use crate::notify::Change;
use crate::notify::filter::Advertised;
use crate::protocol::Message;
use crate::protocol::{self, Error, Inbound, Method, Request};
use bytes::Bytes;
use http::header::HeaderValue;
use http::{HeaderMap, Response, StatusCode};
use std::net::IpAddr;
use std::sync::Arc;
use tokio::sync::{broadcast, mpsc};
use tokio_util::sync::CancellationToken;

/// `initialize` without modern `_meta`: opens a session and names it in `Mcp-Session-Id`.
pub(crate) fn initialize<H: Handler>(
    ep: &Endpoint<H>,
    req: &Request,
    principal: Option<&Principal>,
    peer: Option<IpAddr>,
    accepts_json: bool,
) -> Response<McpBody> {
    let (result, session) = match ep.engine.initialize(req) {
        Ok(opened) => opened,
        Err(e) => return body::error(StatusCode::OK, Some(&req.id), &e),
    };
    let cfg = &ep.config;
    let (client, limits) = (client_of(principal, peer), Limits::of(cfg));
    let id = match ep.sessions.open(
        session,
        principal.map(|p| p.key().to_owned()),
        client,
        limits,
    ) {
        Ok(id) => id,
        Err(OpenError::ClientFull) => {
            tracing::warn!(
                max = cfg.max_sessions_per_client,
                "a client's session limit reached"
            );
            let e = Error::internal(format!(
                "This client already has {} sessions, the most it may hold, and every one is in \
                 use; end one (DELETE) before opening another",
                cfg.max_sessions_per_client
            ));
            return body::error(StatusCode::TOO_MANY_REQUESTS, Some(&req.id), &e);
        }
        Err(OpenError::Full) => {
            tracing::warn!(max = cfg.max_sessions, "session limit reached");
            let e = Error::internal(format!(
                "The server holds {} sessions, the most it may, and every one is in use; try \
                 again later",
                cfg.max_sessions
            ));
            return body::error(StatusCode::SERVICE_UNAVAILABLE, Some(&req.id), &e);
        }
        Err(OpenError::NoRandom) => {
            tracing::error!("no random number generator: cannot mint a session id");
            let e = Error::internal("The session could not be opened");
            return body::error(StatusCode::INTERNAL_SERVER_ERROR, Some(&req.id), &e);
        }
    };
    let msg = Message::response(&req.id, &result);
    let mut r = if accepts_json {
        body::json(StatusCode::OK, msg)
    } else {
        single_event(&msg)
    };
    if let Ok(v) = HeaderValue::from_str(&id) {
        r.headers_mut().insert(SESSION_ID.clone(), v);
    }
    r
}

/// The session a GET or POST names, or the status and error refusing it.
fn session<H: Handler>(
    ep: &Endpoint<H>,
    headers: &HeaderMap,
    id: &str,
    who: Option<&Principal>,
) -> Result<Arc<Entry>, (StatusCode, Error)> {
    let Some(entry) = ep.sessions.get(id, who.map(Principal::key)) else {
        let e = Error::invalid_request("unknown or ended session");
        return Err((StatusCode::NOT_FOUND, e));
    };
    // "If the server receives a request with an invalid or unsupported
    // MCP-Protocol-Version, it MUST respond with 400 Bad Request"; absent means 2025-03-26
    // or the negotiated version, which the session already knows.
    match headers::single(headers, &PROTOCOL_VERSION, "MCP-Protocol-Version") {
        Ok(None) => Ok(entry),
        Ok(Some(v)) if v == entry.session.revision.as_str() => Ok(entry),
        _ => {
            let e = Error::invalid_request("unsupported MCP-Protocol-Version for this session");
            Err((StatusCode::BAD_REQUEST, e))
        }
    }
}

/// A POSTed body over the size limit, of which `head` was read: when it names a session of
/// `who` and starts like the answer to a question that session is waiting for (an `id` it
/// sent, no `method`), that question fails at once rather than after `ask_timeout`.
pub(crate) fn answer_too_large<H: Handler>(
    ep: &Endpoint<H>,
    headers: &HeaderMap,
    who: Option<&Principal>,
    head: &[u8],
) {
    let Ok(Some(sid)) = headers::single(headers, &SESSION_ID, "Mcp-Session-Id") else {
        return;
    };
    let Some(entry) = ep.sessions.get(sid, who.map(Principal::key)) else {
        return;
    };
    let head = protocol::head_of(head);
    if let (Some(id), false) = (head.id, head.method) {
        let why = format!("the answer is larger than the limit of {} bytes", ep.limit);
        if entry.session.back.fail(&id, why) {
            tracing::warn!(%id, "an answer over the size limit failed its question");
        }
    }
}

/// Checks a POST carrying `Mcp-Session-Id`: what it is answered with, or the request to run.
pub(crate) fn post<H: Handler>(
    ep: &Endpoint<H>,
    sid: &str,
    headers: &HeaderMap,
    msg: Inbound,
    principal: Option<Principal>,
    accepts_json: bool,
) -> Served<H> {
    let entry = match session(ep, headers, sid, principal.as_ref()) {
        Ok(e) => e,
        Err((status, e)) => {
            let rid = match &msg {
                Inbound::Request(r) => Some(&r.id),
                _ => None,
            };
            return Served::Now(body::error(status, rid, &e));
        }
    };
    match msg {
        Inbound::Request(req) => request(ep, entry, req, principal, accepts_json),
        other => {
            take(&entry, other);
            Served::Now(body::accepted())
        }
    }
}

/// Takes a message of the session that is no request: a notification (`cancelled` cancels a
/// request in flight), or the client answering a server-to-client request made on one of its
/// SSE streams (an answer that is no valid one fails its question at once).
pub(crate) fn take(entry: &Entry, msg: Inbound) {
    match msg {
        Inbound::Request(_) => {}
        Inbound::Notification { method, params } => {
            if method == Method::Cancelled
                && let Some(id) = protocol::cancelled_request(params.as_ref())
            {
                entry.cancel(&id);
            }
        }
        Inbound::Response { id, outcome } => {
            if !entry.session.back.complete(&id, outcome) {
                tracing::debug!(%id, "response to no pending request ignored");
            }
        }
        Inbound::BadResponse { id, reason } => {
            let failed = entry.session.back.fail(&id, reason.clone());
            tracing::warn!(%id, %reason, failed, "a response that is no valid answer");
        }
    }
}

/// A POSTed batch (`bytes`) for the session the headers name, when that session's revision
/// has batches (2025-03-26); `None` otherwise (the batch is then refused as any other message
/// that is no object).
pub(crate) fn batch<H: Handler>(
    ep: &Arc<Endpoint<H>>,
    headers: &HeaderMap,
    bytes: Bytes,
    principal: &Option<Principal>,
    accepts_json: bool,
) -> Option<Served<H>> {
    let Ok(Some(sid)) = headers::single(headers, &SESSION_ID, "Mcp-Session-Id") else {
        return None;
    };
    let entry = match session(ep, headers, sid, principal.as_ref()) {
        Ok(entry) if entry.session.revision.has_batches() => entry,
        _ => return None,
    };
    let (ep, principal) = (ep.clone(), principal.clone());
    Some(Served::Batch(Box::pin(async move {
        match std::str::from_utf8(&bytes) {
            Ok(text) => super::batch::serve(&ep, entry, text, principal, accepts_json).await,
            Err(e) => body::error(StatusCode::BAD_REQUEST, None, &Error::parse_error(e)),
        }
    })))
}

fn request<H: Handler>(
    ep: &Endpoint<H>,
    entry: Arc<Entry>,
    req: Request,
    principal: Option<Principal>,
    accepts_json: bool,
) -> Served<H> {
    #[cfg(feature = "auth")]
    if let Some(p) = &ep.protection
        && let Some(refused) = p.check_target(&*ep.engine.handler, &req, principal.as_ref())
    {
        return Served::Now(refused);
    }
    let cancel = CancellationToken::new();
    let Some(serial) = entry.register(&req.id, &cancel) else {
        let e = Error::invalid_request("a request with this id is already in flight");
        return Served::Now(body::error(StatusCode::OK, Some(&req.id), &e));
    };
    let hold = InFlight {
        entry: entry.clone(),
        id: req.id.clone(),
        serial,
    };
    let job = Job {
        engine: ep.engine.clone(),
        req,
        route: Route::Legacy(entry.session.clone()),
        principal,
        cancel,
        step_up: ep.step_up_watch(),
    };
    let opts = Opts {
        modern: false,
        accepts_json,
        keep_alive: ep.config.keep_alive,
    };
    Served::Run(Box::new(Exchange {
        job,
        opts,
        hold: Some(hold),
    }))
}

/// GET: the session's standalone SSE stream (one per session; `409` for a second one).
pub(crate) fn get<H: Handler>(
    ep: &Endpoint<H>,
    headers: &HeaderMap,
    who: Option<&Principal>,
) -> Response<McpBody> {
    let Ok(Some(sid)) = headers::single(headers, &SESSION_ID, "Mcp-Session-Id") else {
        return body::method_not_allowed();
    };
    let entry = match session(ep, headers, sid, who) {
        Ok(e) => e,
        Err((status, e)) => return body::error(status, None, &e),
    };
    if !entry.open_get() {
        return body::refuse(
            StatusCode::CONFLICT,
            "this session already has an open GET stream",
        );
    }
    let (tx, rx) = mpsc::channel::<Bytes>(16);
    let events = ep.engine.hub.subscribe();
    let adv = Advertised::of(&ep.engine.config.info.capabilities);
    let keep_alive = ep.config.keep_alive;
    let who = who.cloned();
    tokio::spawn(async move {
        tokio::select! {
            _ = standalone(&entry, events, adv, &tx, keep_alive) => {}
            // The token that opened the stream is no longer accepted: the stream closes and
            // the client opens it again with a fresh token.
            _ = token_expiry(who.as_ref()) => {}
        }
        entry.close_get();
    });
    body::sse(rx)
}

/// Feeds a GET stream until the client leaves or the session ends.
async fn standalone(
    entry: &Entry,
    mut events: broadcast::Receiver<Change>,
    adv: Advertised,
    out: &mpsc::Sender<Bytes>,
    keep_alive: std::time::Duration,
) {
    let mut tick = ticker(keep_alive);
    loop {
        let frame = tokio::select! {
            biased;
            _ = entry.ended.cancelled() => return,
            _ = out.closed() => return,
            _ = tick.tick() => body::sse_keep_alive(),
            ev = events.recv() => match ev {
                Ok(change) if entry.session.wants(adv, &change) => {
                    body::sse_event(&change.to_message(None))
                }
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return,
            },
        };
        if out.send(frame).await.is_err() {
            return;
        }
    }
}

/// DELETE: ends the session; later requests naming it get 404.
pub(crate) fn delete<H: Handler>(
    ep: &Endpoint<H>,
    headers: &HeaderMap,
    who: Option<&Principal>,
) -> Response<McpBody> {
    let Ok(Some(sid)) = headers::single(headers, &SESSION_ID, "Mcp-Session-Id") else {
        return body::method_not_allowed();
    };
    if ep.sessions.close(sid, who.map(Principal::key)) {
        body::status(StatusCode::OK)
    } else {
        body::refuse(StatusCode::NOT_FOUND, "unknown or ended session")
    }
}
