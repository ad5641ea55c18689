//! Newline-delimited JSON-RPC over a byte stream: stdin/stdout, or any `AsyncRead`/`AsyncWrite`
//! pair (the in-memory test client uses a duplex pipe).
//!
//! One line in, one message (in a 2025-03-26 session a line may be a JSON-RPC batch: its
//! requests' responses go out together, as one array). Each request's answer is polled once on the reader: one that is
//! ready then (a tool that waits on nothing, a list) is answered with no task spawned; one that
//! is not goes on in its own task. Those run concurrently, up to `Server::max_in_flight` at
//! once; more wait, in the order they came, for a place. While their lines add up to
//! `max_message_bytes` the reader reads no further, so a client writing faster than the server
//! serves is held back by the pipe, not refused. Responses and
//! notifications are written by one writer task, one line each. `notifications/cancelled` cancels a request in flight and
//! nothing more is sent for it. Responses to 2025-11-25 server-to-client requests are routed to
//! the request waiting for them, and a 2025-11-25 session gets the list changes the server
//! announces. At end of input `subscriptions/listen` streams end at once, the back-channel fails
//! its pending requests, other in-flight requests finish (or are cancelled after a grace period)
//! and the function returns.

mod flights;
#[cfg(feature = "stdio")]
pub(crate) mod pipes;
mod write;

use flights::{Flight, InFlight, Waiting, forget};

use crate::backchannel::Outbound;
use crate::batch_reply::BatchPart;
use crate::dispatch::{Conn, Engine, Route, poll_first};
use crate::era::{self, Era, ModernMeta, Signals};
use crate::handler::Handler;
use crate::lines::{BadLine, Lines};
use crate::middleware::{self, View};
use crate::notify::filter::Advertised;
use crate::protocol::Message;
use crate::protocol::{self, Error, Inbound, JsonObject, Method, Request, RequestId};
use crate::session::LegacySession;
use crate::sync::lock;
use futures_util::StreamExt as _;
use std::io;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::{broadcast, mpsc};
use tokio::task::JoinSet;
use tokio_util::codec::FramedRead;
use tokio_util::sync::CancellationToken;

/// How long in-flight requests may run after the input closed before they are cancelled.
const DRAIN: Duration = Duration::from_secs(10);

/// Serves newline-delimited JSON-RPC read from `reader` and written to `writer` until `reader`
/// reaches its end (see the module docs).
pub(crate) async fn serve_io<H, R, W>(engine: Engine<H>, reader: R, writer: W) -> io::Result<()>
where
    H: Handler,
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (tx, rx) = mpsc::channel::<Message>(256);
    let writer_task = tokio::spawn(write::write_lines(writer, rx));
    let mut lines = FramedRead::new(reader, Lines::new(engine.config.max_message_bytes));
    let mut conn = StdioConn {
        engine,
        out: Outbound::Open(tx),
        session: None,
        session_ended: CancellationToken::new(),
        in_flight: Arc::default(),
        serials: 0,
        tasks: JoinSet::new(),
        waiting: Waiting::default(),
    };
    loop {
        let config = &conn.engine.config;
        let read = !conn.waiting.full(config.max_message_bytes);
        let line = tokio::select! {
            // A request that ends frees its place for the first one waiting.
            Some(_) = conn.tasks.join_next(), if !conn.waiting.is_empty() => {
                conn.start_waiting().await;
                continue;
            }
            line = lines.next(), if read => line,
            // Requests wait only while `max_in_flight` run, so one of those is always there
            // to end; should none be, the waiting ones start.
            else => {
                conn.start_waiting().await;
                continue;
            }
        };
        let Some(line) = line else { break };
        while conn.tasks.try_join_next().is_some() {}
        match line {
            Ok(Ok(line)) => match std::str::from_utf8(&line) {
                Ok(text) => conn.on_line(text).await,
                Err(e) => conn.reject(None, Error::parse_error(e)).await,
            },
            Ok(Err(BadLine::TooLong(head))) => conn.too_long(&head).await,
            Err(e) => {
                tracing::warn!(error = %e, "stdin read failed");
                break;
            }
        }
    }
    conn.finish().await;
    drop(lines);
    writer_task.await.map_err(io::Error::other)?
}

/// The state of one stdio connection.
struct StdioConn<H> {
    engine: Engine<H>,
    out: Outbound,
    /// The 2025-11-25 session `initialize` opened, if any.
    session: Option<Arc<LegacySession>>,
    /// Ends the task forwarding list changes to the current session.
    session_ended: CancellationToken,
    in_flight: InFlight,
    /// The serial number of the last request registered.
    serials: u64,
    tasks: JoinSet<()>,
    /// Requests read while `max_in_flight` ran, waiting for a place.
    waiting: Waiting,
}

impl<H: Handler> StdioConn<H> {
    async fn reject(&self, id: Option<&RequestId>, error: Error) {
        self.out.send(Message::error(id, &error)).await;
    }

    /// A line over the size limit, of which `head` was read. When it starts like the answer to
    /// a question this connection's session is waiting for (an `id` it sent, no `method`), that
    /// question fails at once and nothing is answered; otherwise it is refused with `-32600`,
    /// carrying the id of a request whose `id` came before the cut.
    async fn too_long(&self, head: &[u8]) {
        let limit = self.engine.config.max_message_bytes;
        let head = protocol::head_of(head);
        if let (Some(id), false, Some(session)) = (&head.id, head.method, &self.session) {
            let why = format!("the answer is larger than the limit of {limit} bytes");
            if session.back.fail(id, why) {
                tracing::warn!(%id, limit, "an answer over the size limit failed its question");
                return;
            }
        }
        let id = head.id.filter(|_| head.method);
        let e = Error::invalid_request("message exceeds the size limit");
        self.reject(id.as_ref(), e).await
    }

    async fn on_line(&mut self, line: &str) {
        if line.trim().is_empty() {
            return;
        }
        if protocol::is_batch(line)
            && self
                .session
                .as_ref()
                .is_some_and(|s| s.revision.has_batches())
        {
            return self.on_batch(line).await;
        }
        self.on_message(line, line.len(), None).await
    }

    /// One message: a line, or an entry of a batch (`part`, for the answer to its request).
    async fn on_message(&mut self, text: &str, bytes: usize, part: Option<BatchPart>) {
        let msg = match Inbound::parse_str(text) {
            Ok(msg) => msg,
            Err(rej) => {
                let e = Message::error(rej.id.as_ref(), &rej.error);
                return self.deliver(part, Some(e)).await;
            }
        };
        let signals = Signals {
            session: self.session.is_some(),
            ..Signals::of(&msg)
        };
        let (req, part) = match msg {
            Inbound::Request(req) => (req, part),
            // Not a request: nothing to answer, in a batch or not.
            other => {
                self.on_other(other).await;
                return self.deliver(part, None).await;
            }
        };
        self.on_request(req, signals, bytes, part).await
    }

    /// A notification or a response (a valid one or not).
    async fn on_other(&mut self, msg: Inbound) {
        match msg {
            Inbound::Request(_) => {}
            Inbound::Notification { method, params } => {
                self.on_notification(&method, params.as_ref()).await
            }
            Inbound::Response { id, outcome } => {
                let routed = self
                    .session
                    .as_ref()
                    .is_some_and(|s| s.back.complete(&id, outcome));
                if !routed {
                    tracing::debug!(%id, "response to no pending request ignored");
                }
            }
            // Never answered (it answers the server); the question waiting on it fails now.
            Inbound::BadResponse { id, reason } => self.bad_response(&id, reason),
        }
    }

    /// A client's message for `id` that is no valid response: the question waiting on it, if
    /// any, fails at once.
    fn bad_response(&self, id: &RequestId, reason: String) {
        let failed = self
            .session
            .as_ref()
            .is_some_and(|s| s.back.fail(id, reason.clone()));
        tracing::warn!(%id, %reason, failed, "a response that is no valid answer");
    }

    /// A 2025-03-26 session's batch: each entry is served as a message of its own, and the
    /// responses to its requests go out together, as one array, when the last one is
    /// answered. Its requests wait for a place like any others.
    async fn on_batch(&mut self, line: &str) {
        let entries = match protocol::batch_entries(line) {
            Ok(entries) => entries,
            Err(rej) => return self.reject(rej.id.as_ref(), rej.error).await,
        };
        let batch = BatchPart::new(entries.len(), self.out.clone());
        for entry in entries {
            self.on_message(entry, entry.len(), Some(batch.part()))
                .await;
        }
        // The batch's own share: once its entries are read, it ends with the last answer.
        batch.done(None).await;
    }

    /// Sends `reply` on the connection, or adds it to the answer of the batch it came in.
    async fn deliver(&self, part: Option<BatchPart>, reply: Option<Message>) {
        match part {
            Some(part) => part.done(reply).await,
            None => {
                if let Some(msg) = reply {
                    self.out.send(msg).await;
                }
            }
        }
    }

    /// Serves a request in its era (`era.rs`): `initialize` opens the session, the session's
    /// requests are served in it, anything else is a stateless 2026-07-28 request.
    async fn on_request(
        &mut self,
        mut req: Request,
        signals: Signals,
        bytes: usize,
        part: Option<BatchPart>,
    ) {
        let route = match (era::select(signals), &self.session) {
            // 2025-03-26 § Lifecycle: "The initialization request MUST NOT be part of a
            // JSON-RPC batch".
            (Era::Initialize, _) if part.is_some() => {
                let e = Error::invalid_request("`initialize` must not be part of a batch");
                return self
                    .deliver(part, Some(Message::error(Some(&req.id), &e)))
                    .await;
            }
            (Era::Initialize, _) => return self.initialize(&req).await,
            (Era::Session, Some(session)) => Route::Legacy(session.clone()),
            _ => Route::Modern(ModernMeta::check(req.params.meta.take())),
        };
        if !self.waiting.is_empty()
            || lock(&self.in_flight).len() >= self.engine.config.max_in_flight
        {
            return self.waiting.push(req, route, bytes, part);
        }
        self.spawn(req, route, part).await
    }

    /// Starts waiting requests, in order, while fewer than `max_in_flight` run.
    async fn start_waiting(&mut self) {
        let limit = self.engine.config.max_in_flight;
        while lock(&self.in_flight).len() < limit.max(1) {
            let Some((req, route, part)) = self.waiting.pop() else {
                return;
            };
            self.spawn(req, route, part).await;
        }
    }

    /// Opens (or replaces) the process's 2025-11-25 session.
    async fn initialize(&mut self, req: &Request) {
        match self.engine.initialize(req) {
            Ok((result, s)) => {
                self.end_session();
                let session = Arc::new(s);
                self.session = Some(session.clone());
                self.forward_changes(session);
                self.out.send(Message::response(&req.id, &result)).await;
            }
            Err(e) => self.reject(Some(&req.id), e).await,
        }
    }

    fn end_session(&mut self) {
        if let Some(old) = self.session.take() {
            old.back.close();
        }
        self.session_ended.cancel();
        self.session_ended = CancellationToken::new();
    }

    /// 2025-11-25 has no listen request: the session gets advertised list changes and updates
    /// of subscribed resources on stdout, as an HTTP session gets them on its GET stream.
    fn forward_changes(&mut self, session: Arc<LegacySession>) {
        let mut events = self.engine.hub.subscribe();
        let adv = Advertised::of(&self.engine.config.info.capabilities);
        let (out, ended) = (self.out.clone(), self.session_ended.clone());
        let layers = self.engine.config.layers.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    biased;
                    _ = ended.cancelled() => return,
                    ev = events.recv() => match ev {
                        Ok(change) if session.wants(adv, &change) => {
                            let msg = change.to_message(None);
                            let o = out.clone();
                            let view = || {
                                let client = Some(session.client.clone());
                                View::change(change.method(), session.revision, client, None)
                            };
                            let send = async move { o.send(msg).await };
                            if !middleware::notify(layers.as_ref(), view, send).await {
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

    /// Starts a request. Its answer is polled once here, on the reader: most requests (a
    /// `tools/call` that does not wait on anything, a list) are answered in that poll, with
    /// no task spawned and nothing registered in flight, since nothing can cancel a request
    /// before the reader reads the next line. One that is still pending (it sleeps, awaits
    /// I/O, asks the client, listens) is registered and goes on in its own task, so it never
    /// holds up the next line and `notifications/cancelled` drops it (design §23).
    async fn spawn(&mut self, req: Request, route: Route, part: Option<BatchPart>) {
        if lock(&self.in_flight).contains_key(&req.id) {
            let e = Error::invalid_request("a request with this id is already in flight");
            return self
                .deliver(part, Some(Message::error(Some(&req.id), &e)))
                .await;
        }
        let (id, listen) = (req.id.clone(), req.method == Method::Listen);
        let cancel = CancellationToken::new();
        let conn = Conn {
            out: self.out.clone(),
            principal: self.engine.config.pipe_principal.clone(),
            cancel: cancel.clone(),
            step_up: None,
        };
        let engine = self.engine.clone();
        // Boxed: a task moves its future on spawn, and this one is a request's whole path.
        let mut answer = Box::pin(async move {
            let reply = engine.handle(req, route, &conn).await;
            (reply, conn)
        });
        let first = poll_first(answer.as_mut()).await;
        match first {
            Ok(Poll::Ready((reply, _))) => self.deliver(part, reply).await,
            Ok(Poll::Pending) => {
                self.serials += 1;
                let serial = self.serials;
                let flight = Flight {
                    cancel,
                    listen,
                    serial,
                };
                lock(&self.in_flight).insert(id.clone(), flight);
                let in_flight = self.in_flight.clone();
                self.tasks.spawn(async move {
                    let (reply, conn) = answer.await;
                    forget(&in_flight, &id, serial);
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
            }
            // The tool's own panics are its answer (the driver catches them); this is one in
            // the engine, which a spawned task would have swallowed without an answer.
            Err(_) => {
                tracing::error!(%id, "serving a request panicked");
                let e = Error::internal("The server failed with an internal error");
                self.deliver(part, Some(Message::error(Some(&id), &e)))
                    .await
            }
        }
    }

    async fn on_notification(&mut self, method: &Method, params: Option<&JsonObject>) {
        match method {
            Method::Cancelled => {
                let Some(id) = protocol::cancelled_request(params) else {
                    return;
                };
                let flight = lock(&self.in_flight).remove(&id);
                match flight {
                    Some(flight) => flight.cancel.cancel(),
                    None => {
                        if let Some(Some(part)) = self.waiting.cancel(&id) {
                            part.done(None).await;
                        }
                    }
                }
            }
            Method::Initialized => {}
            other => tracing::debug!(method = %other, "notification ignored"),
        }
    }

    /// End of input: listen streams and the back-channel end now; other requests get a grace
    /// period to finish.
    async fn finish(mut self) {
        for flight in lock(&self.in_flight).values().filter(|f| f.listen) {
            flight.cancel.cancel();
        }
        // A listen stream that had not started would end at once.
        self.waiting.drop_listens();
        self.end_session();
        let drained = tokio::time::timeout(DRAIN, async {
            loop {
                self.start_waiting().await;
                if self.tasks.join_next().await.is_none() {
                    break;
                }
            }
        })
        .await;
        if drained.is_err() {
            for flight in lock(&self.in_flight).values() {
                flight.cancel.cancel();
            }
            self.tasks.shutdown().await;
        }
    }
}
