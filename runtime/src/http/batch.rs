//! A JSON-RPC batch POSTed to a 2025-03-26 session (2025-03-26 § Transports, Streamable HTTP:
//! the body may be "an array batching one or more requests and/or notifications" or one of
//! responses). Notifications and responses are taken at once, as single messages are; a batch
//! with no request is answered `202 Accepted`. Its requests run side by side, sharing one queue
//! for what they send before their responses: when nothing was sent, the responses are one JSON
//! array (`application/json`); otherwise an SSE stream carries the queued messages and then
//! each response as an event of its own (an event holds one message, for clients that read
//! one per event). Bounded by the batch's own bound (`MAX_BATCH_ENTRIES`) and the body's.

use super::body::{self, McpBody};
use super::endpoint::Endpoint;
use super::exchange::{QUEUE, ticker};
use super::session::{Entry, InFlight};
use crate::backchannel::{Lane, Outbound};
use crate::cx::Principal;
use crate::dispatch::{Conn, Route};
use crate::handler::Handler;
use crate::protocol::{self, Error, Inbound, Message, Method};
use bytes::Bytes;
use http::{Response, StatusCode};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

/// Serves the batch `text` in the session `entry` (its revision has batches).
pub(crate) async fn serve<H: Handler>(
    ep: &Endpoint<H>,
    entry: Arc<Entry>,
    text: &str,
    principal: Option<Principal>,
    accepts_json: bool,
) -> Response<McpBody> {
    let entries = match protocol::batch_entries(text) {
        Ok(entries) => entries,
        Err(rej) => return body::error(StatusCode::BAD_REQUEST, rej.id.as_ref(), &rej.error),
    };
    let lane = Lane::new(QUEUE);
    let mut replies = Vec::new();
    let mut running = JoinSet::new();
    for text in entries {
        let req = match Inbound::parse_str(text) {
            Ok(Inbound::Request(req)) => req,
            Ok(other) => {
                super::legacy::take(&entry, other);
                continue;
            }
            Err(rej) => {
                replies.push(Message::error(rej.id.as_ref(), &rej.error));
                continue;
            }
        };
        let refused = |e: Error| Message::error(Some(&req.id), &e);
        if req.method == Method::Initialize {
            let e = Error::invalid_request("`initialize` must not be part of a batch");
            replies.push(refused(e));
            continue;
        }
        // A request the token does not allow refuses the whole batch, with the answer a
        // single request gets (403 with the scopes to ask for): nothing of it has run yet.
        #[cfg(feature = "auth")]
        if let Some(p) = &ep.protection
            && let Some(refusal) = p.check_target(&*ep.engine.handler, &req, principal.as_ref())
        {
            return refusal;
        }
        let cancel = CancellationToken::new();
        let Some(serial) = entry.register(&req.id, &cancel) else {
            let e = Error::invalid_request("a request with this id is already in flight");
            replies.push(refused(e));
            continue;
        };
        let hold = InFlight {
            entry: entry.clone(),
            id: req.id.clone(),
            serial,
        };
        let conn = Conn {
            out: Outbound::Lazy(lane.clone()),
            principal: principal.clone(),
            cancel,
            step_up: None,
        };
        let (engine, route) = (ep.engine.clone(), Route::Legacy(entry.session.clone()));
        running.spawn(async move {
            let reply = engine.handle(req, route, &conn).await;
            drop((conn, hold));
            reply
        });
    }
    if running.is_empty() && replies.is_empty() {
        return body::accepted();
    }
    // Whatever the requests send goes into one queue; it ends when the last of them is done.
    lane.sender();
    let rx = lane.take();
    drop(lane);
    let Some(mut rx) = rx else {
        // Nothing can be queued: every request was refused before it ran.
        return answer(replies, accepts_json);
    };
    match rx.recv().await {
        // The queue ended with nothing in it: every request is done, having sent nothing
        // before its response.
        None => {
            replies.extend(gather(&mut running).await);
            answer(replies, accepts_json)
        }
        Some(first) => stream(first, rx, running, replies, ep.config.keep_alive),
    }
}

/// The responses of the batch's requests, as each ends.
async fn gather(running: &mut JoinSet<Option<Message>>) -> Vec<Message> {
    let mut out = Vec::new();
    while let Some(done) = running.join_next().await {
        match done {
            Ok(reply) => out.extend(reply),
            Err(e) => tracing::error!(error = %e, "a batched request's task failed"),
        }
    }
    out
}

/// The responses as one JSON array, or as SSE events when the client takes no JSON.
fn answer(replies: Vec<Message>, accepts_json: bool) -> Response<McpBody> {
    if replies.is_empty() {
        return body::accepted();
    }
    if accepts_json {
        return body::json(StatusCode::OK, protocol::batch_answer(&replies));
    }
    let (tx, rx) = mpsc::channel(replies.len());
    for m in &replies {
        // As many places as messages: this cannot fail.
        let _ = tx.try_send(body::sse_event(m));
    }
    body::sse(rx)
}

/// The SSE stream of a batch whose requests sent something first: `first`, the rest of the
/// queue, then each response.
fn stream(
    first: Message,
    mut rx: mpsc::Receiver<Message>,
    mut running: JoinSet<Option<Message>>,
    refused: Vec<Message>,
    keep_alive: Duration,
) -> Response<McpBody> {
    let (tx, brx) = mpsc::channel::<Bytes>(QUEUE);
    tokio::spawn(async move {
        if tx.send(body::sse_event(&first)).await.is_err() {
            return;
        }
        let mut tick = ticker(keep_alive);
        loop {
            let frame = tokio::select! {
                biased;
                _ = tx.closed() => return,
                m = rx.recv() => match m {
                    Some(m) => body::sse_event(&m),
                    None => break,
                },
                _ = tick.tick() => body::sse_keep_alive(),
            };
            if tx.send(frame).await.is_err() {
                return;
            }
        }
        let replies = gather(&mut running).await;
        for m in refused.iter().chain(&replies) {
            if tx.send(body::sse_event(m)).await.is_err() {
                return;
            }
        }
    });
    body::sse(brx)
}
