//! Newline-delimited JSON-RPC over a byte stream: stdin/stdout, or any `AsyncRead`/`AsyncWrite`
//! pair (the in-memory test client uses a duplex pipe).
//!
//! One line in, one message. Requests run concurrently; responses and notifications are written
//! by one writer task, one line each. `notifications/cancelled` cancels a request in flight and
//! nothing more is sent for it. Responses to 2025-11-25 server-to-client requests are routed to
//! the request waiting for them. At end of input the back-channel fails its pending requests,
//! in-flight requests finish (or are cancelled after a grace period) and the function returns.

use crate::backchannel::Outbound;
use crate::dispatch::{Conn, LegacySession, Route, route};
use crate::handler::Handler;
use crate::protocol::{self, Error, Inbound, RequestId};
use crate::server::Server;
use futures_util::StreamExt as _;
use serde_json::Value;
use std::collections::HashMap;
use std::io;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_util::bytes::BytesMut;
use tokio_util::codec::{Decoder, FramedRead, LinesCodec, LinesCodecError};
use tokio_util::sync::CancellationToken;

/// How long in-flight requests may run after the input closed before they are cancelled.
const DRAIN: Duration = Duration::from_secs(10);

type InFlight = Arc<Mutex<HashMap<RequestId, CancellationToken>>>;

impl<H: Handler> Server<H> {
    /// Serves this process's stdin and stdout until stdin closes. Logs go to stderr only.
    #[cfg(feature = "stdio")]
    pub async fn serve_stdio(self) -> io::Result<()> {
        self.serve_io(tokio::io::stdin(), tokio::io::stdout()).await
    }

    /// Serves newline-delimited JSON-RPC read from `reader` and written to `writer` until
    /// `reader` reaches its end.
    pub async fn serve_io<R, W>(self, reader: R, writer: W) -> io::Result<()>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (tx, rx) = mpsc::channel::<Value>(256);
        let writer_task = tokio::spawn(write_lines(writer, rx));
        let out = Outbound(tx);
        let mut lines = FramedRead::new(
            reader,
            LineResults(LinesCodec::new_with_max_length(
                self.config.max_message_bytes,
            )),
        );
        let mut session: Option<Arc<LegacySession>> = None;
        let in_flight: InFlight = Arc::default();
        let mut tasks = JoinSet::new();
        while let Some(line) = lines.next().await {
            while tasks.try_join_next().is_some() {}
            let line = match line {
                Ok(Ok(line)) => line,
                Ok(Err(LinesCodecError::MaxLineLengthExceeded)) => {
                    let e = Error::invalid_request("message exceeds the size limit");
                    out.send(protocol::error_response(None, &e)).await;
                    continue;
                }
                Ok(Err(LinesCodecError::Io(e))) => {
                    // The codec's only I/O-kind error is a line that is not UTF-8 (consumed).
                    let e = Error::parse_error(e);
                    out.send(protocol::error_response(None, &e)).await;
                    continue;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "stdin read failed");
                    break;
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            match Inbound::parse(line.as_bytes()) {
                Err(rej) => {
                    out.send(protocol::error_response(rej.id.as_ref(), &rej.error))
                        .await;
                }
                Ok(Inbound::Request(req)) => {
                    if route(&req, session.is_some()) == Route::Initialize {
                        match self.initialize(&req) {
                            Ok((result, s)) => {
                                if let Some(old) = session.replace(Arc::new(s)) {
                                    old.back.close();
                                }
                                out.send(protocol::response(&req.id, result)).await;
                            }
                            Err(e) => {
                                out.send(protocol::error_response(Some(&req.id), &e)).await;
                            }
                        }
                        continue;
                    }
                    let token = CancellationToken::new();
                    if !register(&in_flight, &req.id, &token) {
                        let e =
                            Error::invalid_request("a request with this id is already in flight");
                        out.send(protocol::error_response(Some(&req.id), &e)).await;
                        continue;
                    }
                    let conn = Conn {
                        out: out.clone(),
                        session: session.clone(),
                        principal: None,
                        cancel: token,
                    };
                    let server = self.clone();
                    let in_flight = in_flight.clone();
                    tasks.spawn(async move {
                        let id = req.id.clone();
                        let reply = server.handle(req, &conn).await;
                        in_flight
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .remove(&id);
                        if let Some(msg) = reply
                            && !conn.cancel.is_cancelled()
                        {
                            conn.out.send(msg).await;
                        }
                    });
                }
                Ok(Inbound::Notification { method, params }) => match method.as_str() {
                    "notifications/cancelled" => {
                        let id = params
                            .as_ref()
                            .and_then(|p| p.get("requestId"))
                            .and_then(RequestId::from_value);
                        if let Some(token) = id.and_then(|id| {
                            in_flight
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .remove(&id)
                        }) {
                            token.cancel();
                        }
                    }
                    "notifications/initialized" => {}
                    other => tracing::debug!(method = other, "notification ignored"),
                },
                Ok(Inbound::Response { id, outcome }) => {
                    let routed = session
                        .as_ref()
                        .is_some_and(|s| s.back.complete(&id, outcome));
                    if !routed {
                        tracing::debug!(%id, "response to no pending request ignored");
                    }
                }
            }
        }
        if let Some(s) = &session {
            s.back.close();
        }
        if tokio::time::timeout(DRAIN, async { while tasks.join_next().await.is_some() {} })
            .await
            .is_err()
        {
            for token in in_flight.lock().unwrap_or_else(|p| p.into_inner()).values() {
                token.cancel();
            }
            tasks.shutdown().await;
        }
        drop(out);
        drop(lines);
        writer_task.await.map_err(io::Error::other)?
    }
}

/// [`LinesCodec`] with its per-line errors (line too long, not UTF-8) as items rather than
/// stream errors. After a decoder error `FramedRead` yields `None` once (which would read as
/// end of input) and then waits for new bytes before decoding lines it already buffered; as
/// items, the bad line is answered and the next line is served at once.
struct LineResults(LinesCodec);

impl Decoder for LineResults {
    type Item = Result<String, LinesCodecError>;
    type Error = io::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> io::Result<Option<Self::Item>> {
        Ok(self.0.decode(buf).transpose())
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> io::Result<Option<Self::Item>> {
        Ok(self.0.decode_eof(buf).transpose())
    }
}

async fn write_lines<W: AsyncWrite + Unpin>(
    mut w: W,
    mut rx: mpsc::Receiver<Value>,
) -> io::Result<()> {
    while let Some(msg) = rx.recv().await {
        let mut line = serde_json::to_vec(&msg).map_err(io::Error::other)?;
        line.push(b'\n');
        w.write_all(&line).await?;
        w.flush().await?;
    }
    w.shutdown().await.or(Ok(()))
}

/// Records a request in flight; `false` when its id is already in use.
fn register(in_flight: &InFlight, id: &RequestId, token: &CancellationToken) -> bool {
    let mut map = in_flight.lock().unwrap_or_else(|p| p.into_inner());
    if map.contains_key(id) {
        return false;
    }
    map.insert(id.clone(), token.clone());
    true
}
