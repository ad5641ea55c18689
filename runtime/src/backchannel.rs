//! 2025-11-25 server-to-client requests: id allocation, correlation, timeout.

use crate::protocol::{self, Error, Message, RequestId};
use crate::sync::lock;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

/// Where the messages of one request go: stdout, or the request's SSE stream.
#[derive(Clone, Debug)]
pub(crate) struct Outbound(pub(crate) mpsc::Sender<Message>);

impl Outbound {
    /// An outbound whose other side is gone: every send is `false`. What a task's context
    /// holds, so that a task never keeps its request's stream (or an HTTP response) open.
    pub(crate) fn closed() -> Outbound {
        Outbound(mpsc::channel(1).0)
    }

    /// Sends a message; `false` when the other side is gone.
    pub(crate) async fn send(&self, msg: Message) -> bool {
        self.0.send(msg).await.is_ok()
    }
}

/// Why a back-channel request failed.
#[derive(Debug)]
pub(crate) enum BackChannelError {
    /// The client answered with a JSON-RPC error.
    Client(Error),
    /// The client's answer was no valid response (malformed, a duplicate key, too large).
    Malformed(String),
    /// No answer within the timeout.
    Timeout,
    /// The connection or session ended, the stream the question went out on closed, or the
    /// request was cancelled.
    Closed,
}

/// What came back for a pending request.
#[derive(Debug)]
enum Reply {
    /// A result or a JSON-RPC error.
    Answer(Result<Value, Error>),
    /// A message for this id that is no valid response.
    Malformed(String),
}

/// Where the answer to each pending request goes, by the id the server chose.
type Pending = HashMap<RequestId, oneshot::Sender<Reply>>;

/// The pending server-to-client requests of one stdio process or one HTTP session.
#[derive(Debug, Default)]
pub(crate) struct BackChannel {
    next: AtomicU64,
    closed: AtomicBool,
    pending: Mutex<Pending>,
}

impl BackChannel {
    /// Sends `method` with `params` on `out` and waits for the correlated response.
    pub(crate) async fn request(
        &self,
        out: &Outbound,
        method: &str,
        params: Option<Value>,
        timeout: Duration,
        cancel: &CancellationToken,
    ) -> Result<Value, BackChannelError> {
        if self.closed.load(Ordering::SeqCst) {
            return Err(BackChannelError::Closed);
        }
        let id = RequestId::String(format!(
            "rondo-{}",
            self.next.fetch_add(1, Ordering::SeqCst) + 1
        ));
        let (tx, rx) = oneshot::channel();
        self.pending().insert(id.clone(), tx);
        let _guard = Forget {
            chan: self,
            id: id.clone(),
        };
        // `close` may have run between the check above and the insert; it would not have
        // failed this entry, which would then wait out the whole timeout.
        if self.closed.load(Ordering::SeqCst) {
            return Err(BackChannelError::Closed);
        }
        if !out.send(protocol::request(&id, method, params)).await {
            return Err(BackChannelError::Closed);
        }
        // The answer can only come from the client the question went to: when the stream it
        // went out on closes (the client left its POST's SSE stream), it fails at once.
        tokio::select! {
            _ = out.0.closed() => Err(BackChannelError::Closed),
            r = tokio::time::timeout(timeout, rx) => match r {
                Ok(Ok(Reply::Answer(Ok(v)))) => Ok(v),
                Ok(Ok(Reply::Answer(Err(e)))) => Err(BackChannelError::Client(e)),
                Ok(Ok(Reply::Malformed(why))) => Err(BackChannelError::Malformed(why)),
                Ok(Err(_)) => Err(BackChannelError::Closed),
                Err(_) => Err(BackChannelError::Timeout),
            },
            _ = cancel.cancelled() => Err(BackChannelError::Closed),
        }
    }

    /// Routes a client response; `false` when no request with that id is pending.
    pub(crate) fn complete(&self, id: &RequestId, outcome: Result<Value, Error>) -> bool {
        self.reply(id, Reply::Answer(outcome))
    }

    /// Fails the pending request `id` at once: the client's message for it was no valid
    /// response (`why`). `false` when no request with that id is pending.
    pub(crate) fn fail(&self, id: &RequestId, why: String) -> bool {
        self.reply(id, Reply::Malformed(why))
    }

    fn reply(&self, id: &RequestId, reply: Reply) -> bool {
        match self.pending().remove(id) {
            Some(tx) => tx.send(reply).is_ok(),
            None => false,
        }
    }

    /// Fails every pending request and refuses new ones (EOF, session end).
    pub(crate) fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.pending().clear();
    }

    fn pending(&self) -> MutexGuard<'_, Pending> {
        lock(&self.pending)
    }
}

/// Removes a pending entry when its request future ends for any reason (timeout, cancel, drop).
struct Forget<'a> {
    chan: &'a BackChannel,
    id: RequestId,
}

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        self.chan.pending().remove(&self.id);
    }
}
