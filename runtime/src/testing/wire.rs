//! The client's end of the in-memory pipe: writing, recording and checking every line in both
//! directions, and routing what the server sends (responses to pending requests, back-channel
//! requests answered from the script), and what is at the other end.

use super::{Direction, Frame, Reply, Script, Validator};
use crate::protocol::{self, Error, Inbound, RequestId};
use serde_json::Value;
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::oneshot;

pub(super) type Pending = HashMap<RequestId, oneshot::Sender<Result<Value, Error>>>;

/// The client's read end: the server's output.
pub(super) type Reader = Pin<Box<dyn AsyncRead + Send>>;
/// The client's write end: the server's input.
pub(super) type Writer = Pin<Box<dyn AsyncWrite + Send>>;

/// Shown every recorded line, as it is recorded ([`TestClientBuilder::echo`]).
///
/// [`TestClientBuilder::echo`]: super::TestClientBuilder::echo
pub(super) type Echo = Arc<dyn Fn(&Frame) + Send + Sync>;

/// The client's ends of the pipe, and what ends when the conversation does.
pub(super) struct Pipe {
    pub(super) reader: Reader,
    pub(super) writer: Writer,
    pub(super) peer: Peer,
}

/// What is at the other end of the pipe, for [`TestClient::close`](super::TestClient::close).
pub(super) enum Peer {
    /// A [`Server`](crate::Server) served on the pipe by this task.
    Task(tokio::task::JoinHandle<std::io::Result<()>>),
    /// A child process on its stdin and stdout.
    Child(tokio::process::Child),
    /// Whatever the caller connected ([`TestClient::over_io`](super::TestClient::over_io)).
    Other,
}

pub(super) struct Shared {
    /// `None` once the client closed the server's input.
    pub(super) writer: tokio::sync::Mutex<Option<Writer>>,
    pub(super) echo: Option<Echo>,
    pub(super) transcript: Mutex<Vec<Frame>>,
    pub(super) check: Mutex<Validator>,
    pub(super) pending: Mutex<Pending>,
    pub(super) script: Mutex<Script>,
}

/// Locks a mutex whether or not a panicking thread poisoned it.
pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Shared {
    /// Records, checks and writes one message.
    pub(super) async fn send(&self, msg: Value) {
        self.send_line(&msg.to_string()).await;
    }

    /// Records, checks and writes one line (which need not be JSON).
    pub(super) async fn send_line(&self, line: &str) {
        // Recorded under the writer's lock, so the transcript has the order of the wire.
        // A line sent after the input was closed never goes over the wire: not recorded.
        let mut w = self.writer.lock().await;
        let Some(w) = w.as_mut() else {
            return;
        };
        self.record(Direction::Sent, line.as_bytes());
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        let _ = w.write_all(&bytes).await;
        let _ = w.flush().await;
    }

    /// Ends the server's input: shut down and dropped (a child's stdin closes only when
    /// dropped, an in-memory pipe's write half only when shut down).
    pub(super) async fn close_input(&self) {
        if let Some(mut w) = self.writer.lock().await.take() {
            let _ = w.shutdown().await;
        }
    }

    /// Adds a line to the transcript and checks it; its JSON, when it is JSON.
    fn record(&self, direction: Direction, line: &[u8]) -> Option<Value> {
        let message: Option<Value> = serde_json::from_slice(line).ok();
        match direction {
            Direction::Sent => lock(&self.check).sent(line),
            Direction::Received => lock(&self.check).received(line),
        }
        let frame = Frame {
            direction,
            message: message.clone().unwrap_or(Value::Null),
            line: String::from_utf8_lossy(line).into_owned(),
        };
        if let Some(echo) = &self.echo {
            echo(&frame);
        }
        lock(&self.transcript).push(frame);
        message
    }

    pub(super) fn take_reply(
        &self,
        method: &str,
        key: Option<&str>,
        params: &Value,
    ) -> Option<Reply> {
        lock(&self.script).take(method, key, params)
    }
}

/// Reads the server's output line by line until it ends; every line is recorded and checked,
/// JSON or not.
pub(super) async fn read_loop(mut r: BufReader<Reader>, shared: Arc<Shared>) {
    let mut line = Vec::new();
    loop {
        line.clear();
        match r.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        if let Some(msg) = shared.record(Direction::Received, &line) {
            route(&shared, &line, msg);
        }
    }
    for (_, tx) in lock(&shared.pending).drain() {
        let _ = tx.send(Err(Error::internal("server closed the connection")));
    }
}

/// Hands a response to its caller, or answers a back-channel request from the script.
fn route(shared: &Arc<Shared>, line: &[u8], msg: Value) {
    // The question as it was put, for a script that answers by what it asks.
    let params = match (msg.get("id"), msg.get("params")) {
        (Some(_), Some(params)) => params.clone(),
        _ => Value::Null,
    };
    match Inbound::parse(line) {
        Ok(Inbound::Response { id, outcome }) => {
            if let Some(tx) = lock(&shared.pending).remove(&id) {
                let _ = tx.send(outcome);
            }
        }
        Ok(Inbound::Request(req)) => {
            let reply = shared
                .take_reply(req.method.as_str(), None, &params)
                .and_then(|r| r.to_value());
            let shared = shared.clone();
            tokio::spawn(async move {
                match reply {
                    Some(Ok(v)) => shared.send(protocol::response(&req.id, v)).await,
                    Some(Err(e)) => {
                        let msg = protocol::error_response(Some(&req.id), &e);
                        shared.send(msg).await
                    }
                    None => {}
                }
            });
        }
        Err(rej) => {
            let waiting = rej.id.and_then(|id| lock(&shared.pending).remove(&id));
            if let Some(tx) = waiting {
                let _ = tx.send(Err(rej.error));
            }
        }
        Ok(Inbound::BadResponse { id, reason }) => {
            if let Some(tx) = lock(&shared.pending).remove(&id) {
                let _ = tx.send(Err(Error::invalid_request(reason)));
            }
        }
        Ok(Inbound::Notification { .. }) => {}
    }
}
