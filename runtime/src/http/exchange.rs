//! One JSON-RPC request over one POST: the handler runs on its own task, and the answer is
//! `application/json` when nothing precedes the result, else a request-scoped SSE stream
//! (notifications, 2025-11-25 server-to-client requests, then the response, then the end).
//!
//! Cancellation (2026-07-28 § Streamable HTTP, Cancellation: "Closing the SSE response stream
//! MUST be treated by the server as cancellation of that request"): for a modern request the
//! request's token is cancelled when the client goes away, before the response head (the
//! response future is dropped) or after it (the body is dropped and the pump sees the channel
//! close). 2025-11-25 says a disconnect is *not* a cancellation, so legacy requests run on.

use super::body::{self, McpBody};
use crate::backchannel::Outbound;
use crate::cx::Principal;
use crate::dispatch::{Conn, Engine, Route};
use crate::handler::Handler;
use crate::identity::{StepUp, StepUpSlot};
use crate::protocol::Message;
use crate::protocol::{Error, Request, RequestId};
use bytes::Bytes;
use http::{Response, StatusCode};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::{Instant, Interval, interval_at};
use tokio_util::sync::{CancellationToken, DropGuard};

/// Messages a handler may queue ahead of a slow client before it waits.
const QUEUE: usize = 32;

/// How one request is answered.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Opts {
    /// 2026-07-28: statuses from error codes, and a disconnect cancels the request.
    pub modern: bool,
    /// `false` when the client's `Accept` excludes JSON: then every answer is SSE.
    pub accepts_json: bool,
    /// SSE keep-alive comment interval.
    pub keep_alive: Duration,
}

/// Where the request runs and who asks.
pub(crate) struct Job<H> {
    /// Serves the request.
    pub engine: Engine<H>,
    /// The request.
    pub req: Request,
    /// Its era, as the transport decided.
    pub route: Route,
    /// Who is calling.
    pub principal: Option<Principal>,
    /// Cancels the request.
    pub cancel: CancellationToken,
    /// On a protected endpoint: where `cx.require_scopes` records a step-up, and who answers
    /// it.
    pub step_up: Option<StepUpWatch>,
}

/// Turns a recorded step-up into the transport's answer (the resource server's
/// `403 insufficient_scope`).
pub(crate) trait Challenger: Send + Sync {
    /// The answer to `step_up`.
    fn step_up(&self, step_up: &StepUp) -> Response<McpBody>;
}

/// A request's step-up slot and its challenger.
pub(crate) struct StepUpWatch {
    pub slot: StepUpSlot,
    pub answer: Arc<dyn Challenger>,
}

/// Runs `job` and answers it. `hold` is dropped when the handler finishes (it unregisters a
/// legacy request in flight).
pub(crate) async fn run<H: Handler>(
    job: Job<H>,
    opts: Opts,
    hold: impl Send + 'static,
) -> Response<McpBody> {
    let id = job.req.id.clone();
    let (tx, mut rx) = mpsc::channel::<Message>(QUEUE);
    let (done_tx, done_rx) = oneshot::channel();
    let conn = Conn {
        out: Outbound(tx),
        principal: job.principal,
        cancel: job.cancel.clone(),
        step_up: job.step_up.as_ref().map(|w| w.slot.clone()),
    };
    let (engine, req, route) = (job.engine, job.req, job.route);
    tokio::spawn(async move {
        let reply = engine.handle(req, route, &conn).await;
        // Every sender is gone once `conn` is: the pump then sees the queue end before the
        // final answer, so the answer is always the last message.
        drop(conn);
        drop(hold);
        let _ = done_tx.send(reply);
    });
    let guard = opts.modern.then(|| job.cancel.clone().drop_guard());
    match rx.recv().await {
        Some(first) => stream(first, rx, done_rx, guard, opts.keep_alive, id),
        None => {
            let reply = final_message(done_rx.await, &id);
            if let Some(g) = guard {
                g.disarm();
            }
            // Nothing was sent yet, so a step-up can still be the HTTP status clients act on.
            if let (Some(w), Some(msg)) = (&job.step_up, &reply)
                && msg.error_code().is_some()
                && let Some(s) = w.slot.get()
            {
                return w.answer.step_up(s);
            }
            match reply {
                Some(msg) if opts.accepts_json => {
                    let status = if opts.modern {
                        body::modern_status(&msg)
                    } else {
                        StatusCode::OK
                    };
                    body::json(status, msg)
                }
                Some(msg) => single_event(&msg),
                // Cancelled (2025-11-25 `notifications/cancelled`, or a session that ended):
                // nothing may be sent for it, so the stream ends empty.
                None => body::sse(mpsc::channel(1).1),
            }
        }
    }
}

/// The handler's answer; a task that died without one becomes an internal error.
fn final_message(
    done: Result<Option<Message>, oneshot::error::RecvError>,
    id: &RequestId,
) -> Option<Message> {
    done.unwrap_or_else(|_| {
        tracing::error!("request task ended without an answer");
        let e = Error::internal("The request failed with an internal error");
        Some(Message::error(Some(id), &e))
    })
}

/// One message as a complete SSE response.
pub(crate) fn single_event(msg: &Message) -> Response<McpBody> {
    let (tx, rx) = mpsc::channel(1);
    // Capacity 1 and a fresh channel: this cannot fail.
    let _ = tx.try_send(body::sse_event(msg));
    body::sse(rx)
}

/// Starts the SSE response: `first`, the rest of the queue, then the final answer.
fn stream(
    first: Message,
    rx: mpsc::Receiver<Message>,
    done: oneshot::Receiver<Option<Message>>,
    guard: Option<DropGuard>,
    keep_alive: Duration,
    id: RequestId,
) -> Response<McpBody> {
    let (btx, brx) = mpsc::channel::<Bytes>(QUEUE);
    tokio::spawn(async move {
        // Dropped when the pump ends: after the answer that is harmless; before it, the
        // client went away and (2026-07-28) the request is cancelled.
        let _guard = guard;
        pump(first, rx, done, &btx, keep_alive, &id).await;
    });
    body::sse(brx)
}

async fn pump(
    first: Message,
    mut rx: mpsc::Receiver<Message>,
    done: oneshot::Receiver<Option<Message>>,
    out: &mpsc::Sender<Bytes>,
    keep_alive: Duration,
    id: &RequestId,
) {
    if out.send(body::sse_event(&first)).await.is_err() {
        return;
    }
    let mut tick = ticker(keep_alive);
    loop {
        let frame = tokio::select! {
            biased;
            _ = out.closed() => return,
            m = rx.recv() => match m {
                Some(m) => body::sse_event(&m),
                None => break,
            },
            _ = tick.tick() => body::sse_keep_alive(),
        };
        if out.send(frame).await.is_err() {
            return;
        }
    }
    let done = tokio::select! {
        _ = out.closed() => return,
        d = done => d,
    };
    if let Some(msg) = final_message(done, id) {
        let _ = out.send(body::sse_event(&msg)).await;
    }
}

/// A keep-alive interval whose first tick is one period away.
pub(crate) fn ticker(every: Duration) -> Interval {
    let every = every.max(Duration::from_millis(10));
    interval_at(Instant::now() + every, every)
}
