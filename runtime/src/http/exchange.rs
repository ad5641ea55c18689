//! One JSON-RPC request over one POST: the handler is polled once in the request's future and,
//! if it is not done then, runs on in its own task, and the answer is
//! `application/json` when nothing precedes the result, else a request-scoped SSE stream
//! (notifications, 2025-11-25 server-to-client requests, then the response, then the end).
//!
//! Cancellation (2026-07-28 § Streamable HTTP, Cancellation: "Closing the SSE response stream
//! MUST be treated by the server as cancellation of that request"): for a modern request the
//! request's token is cancelled when the client goes away, before the response head (the
//! response future is dropped) or after it (the body is dropped and the pump sees the channel
//! close). 2025-11-25 says a disconnect is *not* a cancellation, so legacy requests run on.

use super::body::{self, McpBody};
use super::session::InFlight;
use crate::backchannel::{Lane, Outbound};
use crate::cx::Principal;
use crate::dispatch::{Conn, Engine, Route, poll_first};
use crate::handler::Handler;
use crate::identity::{StepUp, StepUpSlot};
use crate::protocol::Message;
use crate::protocol::{Error, Request, RequestId};
use bytes::Bytes;
use http::{Response, StatusCode};
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::{Instant, Interval, interval_at};
use tokio_util::sync::{CancellationToken, DropGuard};

/// Messages a handler may queue ahead of a slow client before it waits.
pub(crate) const QUEUE: usize = 32;

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

/// What a POST comes to once its headers and body are checked: an answer at once (a refusal,
/// a notification accepted, an answer routed to its question), or a request to run. The checks
/// are synchronous, so the one future a POST awaits is [`run`]'s: no era's path nests its own
/// future around it (each level would hold, and copy, the whole of the one inside).
pub(crate) enum Served<H> {
    /// Answered already.
    Now(Response<McpBody>),
    /// To run and answer.
    Run(Box<Exchange<H>>),
    /// A 2025-03-26 batch to run and answer (boxed: it is rare, and its future must not size
    /// every request's).
    Batch(std::pin::Pin<Box<dyn std::future::Future<Output = Response<McpBody>> + Send>>),
}

/// A request to run, how it is answered, and what its answer releases.
pub(crate) struct Exchange<H> {
    /// The request and where it runs.
    pub job: Job<H>,
    /// How it is answered.
    pub opts: Opts,
    /// Released when the handler finishes: the registration of a 2025-11-25 request in
    /// flight (its id is free again), none for a 2026-07-28 one.
    pub hold: Option<InFlight>,
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

/// Runs the exchange's job and answers it. Its `hold` is dropped when the handler finishes.
pub(crate) async fn run<H: Handler>(exchange: Box<Exchange<H>>) -> Response<McpBody> {
    let Exchange { job, opts, hold } = *exchange;
    // Taken apart whole: a `job` partly moved out of would be kept in this future, its
    // engine's room included, while the request runs.
    let Job {
        engine,
        req,
        route,
        principal,
        cancel,
        step_up,
    } = job;
    let id = req.id.clone();
    let lane = Lane::new(QUEUE);
    let conn = Conn {
        out: Outbound::Lazy(lane.clone()),
        principal,
        cancel: cancel.clone(),
        step_up: step_up.as_ref().map(|w| w.slot.clone()),
    };
    let mut answer = Box::pin(async move {
        let reply = engine.handle(req, route, &conn).await;
        // Every sender is gone once `conn` is: the pump then sees the queue end before the
        // final answer, so the answer is always the last message.
        drop(conn);
        drop(hold);
        reply
    });
    // Polled once here: a handler that waits on nothing is answered in this poll, with no
    // task spawned; one still pending goes on in its own task (design §23, "Poll once").
    let first = poll_first(answer.as_mut()).await;
    let done = match first {
        Ok(Poll::Ready(reply)) => Done::Now(reply),
        Ok(Poll::Pending) => {
            let (done_tx, done_rx) = oneshot::channel();
            tokio::spawn(async move {
                let _ = done_tx.send(answer.await);
            });
            Done::Later(done_rx)
        }
        // The tool's own panics are its answer (the driver catches them); this is one in the
        // engine, answered as a task that died would be.
        Err(_) => {
            tracing::error!("serving a request panicked");
            Done::Now(Some(internal_error(&id)))
        }
    };
    // The queue exists when the handler sent something in its first poll, or is made now
    // for a handler that goes on (it may send later). A handler done in its first poll
    // without sending anything is answered with no queue made at all.
    if matches!(done, Done::Later(_)) {
        lane.sender();
    }
    let rx = lane.take();
    drop(lane);
    let guard = opts.modern.then(|| cancel.clone().drop_guard());
    let first = match rx {
        Some(mut rx) => rx.recv().await.map(|first| (first, rx)),
        None => None,
    };
    match first {
        Some((first, rx)) => stream(first, rx, done, guard, opts.keep_alive, id),
        None => {
            let reply = done.answer(&id).await;
            if let Some(g) = guard {
                g.disarm();
            }
            // Nothing was sent yet, so a step-up can still be the HTTP status clients act on.
            if let (Some(w), Some(msg)) = (&step_up, &reply)
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

/// The handler's answer: at once when its first poll finished it, else from its task.
enum Done {
    Now(Option<Message>),
    Later(oneshot::Receiver<Option<Message>>),
}

impl Done {
    /// The answer; a task that died without one becomes an internal error.
    async fn answer(self, id: &RequestId) -> Option<Message> {
        match self {
            Done::Now(reply) => reply,
            Done::Later(rx) => rx.await.unwrap_or_else(|_| {
                tracing::error!("request task ended without an answer");
                Some(internal_error(id))
            }),
        }
    }
}

fn internal_error(id: &RequestId) -> Message {
    let e = Error::internal("The request failed with an internal error");
    Message::error(Some(id), &e)
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
    done: Done,
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
    done: Done,
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
        d = done.answer(id) => d,
    };
    if let Some(msg) = done {
        let _ = out.send(body::sse_event(&msg)).await;
    }
}

/// A keep-alive interval whose first tick is one period away.
pub(crate) fn ticker(every: Duration) -> Interval {
    let every = every.max(Duration::from_millis(10));
    interval_at(Instant::now() + every, every)
}
