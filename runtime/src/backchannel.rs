//! 2025-11-25 server-to-client requests: id allocation, correlation, timeout.

use crate::protocol::{self, Error, Message, RequestId};
use crate::sync::lock;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
#[cfg(feature = "http")]
use std::sync::{Arc, OnceLock};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

/// Where the messages of one request go: stdout, or the request's SSE stream.
#[derive(Clone, Debug)]
pub(crate) enum Outbound {
    /// A channel that is there already (stdout's).
    Open(mpsc::Sender<Message>),
    /// One HTTP request's own queue, made when the first message is sent: most requests send
    /// none, and the queue is two allocations of about 2 KiB (design §23, "HTTP").
    #[cfg(feature = "http")]
    Lazy(Arc<Lane>),
    /// The other side is gone: every send is `false`.
    Closed,
}

/// One request's queue, made on first use. Whoever makes it keeps its sending end here, for
/// every clone of the [`Outbound`], and leaves its receiving end for [`Lane::take`].
#[cfg(feature = "http")]
#[derive(Debug)]
pub(crate) struct Lane {
    capacity: usize,
    tx: OnceLock<mpsc::Sender<Message>>,
    rx: Mutex<Far>,
}

/// The receiving end of a [`Lane`].
#[cfg(feature = "http")]
#[derive(Debug)]
enum Far {
    /// No queue yet.
    Unmade,
    /// Made, not taken yet.
    Made(mpsc::Receiver<Message>),
    /// Taken, or given up (the answer went out before anything was sent): a queue made now
    /// is closed at once, so a late send fails instead of filling a queue nobody reads.
    Taken,
}

#[cfg(feature = "http")]
impl Lane {
    /// A lane whose queue, once made, holds `capacity` messages.
    pub(crate) fn new(capacity: usize) -> Arc<Lane> {
        Arc::new(Lane {
            capacity,
            tx: OnceLock::new(),
            rx: Mutex::new(Far::Unmade),
        })
    }

    /// The sending end, the queue made now if it was not yet.
    pub(crate) fn sender(&self) -> &mpsc::Sender<Message> {
        self.tx.get_or_init(|| {
            let (tx, rx) = mpsc::channel(self.capacity);
            let mut far = lock(&self.rx);
            if matches!(*far, Far::Unmade) {
                *far = Far::Made(rx);
            }
            tx
        })
    }

    /// The receiving end, once: `None` when no queue was made (nothing was sent yet; a queue
    /// made later is closed) or it was taken already.
    pub(crate) fn take(&self) -> Option<mpsc::Receiver<Message>> {
        match std::mem::replace(&mut *lock(&self.rx), Far::Taken) {
            Far::Made(rx) => Some(rx),
            Far::Unmade | Far::Taken => None,
        }
    }
}

impl Outbound {
    /// An outbound whose other side is gone: every send is `false`. What a task's context
    /// holds, so that a task never keeps its request's stream (or an HTTP response) open.
    pub(crate) fn closed() -> Outbound {
        Outbound::Closed
    }

    /// The sending end, if any.
    fn sender(&self) -> Option<&mpsc::Sender<Message>> {
        match self {
            Outbound::Open(tx) => Some(tx),
            #[cfg(feature = "http")]
            Outbound::Lazy(lane) => Some(lane.sender()),
            Outbound::Closed => None,
        }
    }

    /// Sends a message; `false` when the other side is gone.
    pub(crate) async fn send(&self, msg: Message) -> bool {
        match self.sender() {
            Some(tx) => tx.send(msg).await.is_ok(),
            None => false,
        }
    }

    /// Resolves when the other side is gone.
    pub(crate) async fn gone(&self) {
        if let Some(tx) = self.sender() {
            tx.closed().await;
        }
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
            _ = out.gone() => Err(BackChannelError::Closed),
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

#[cfg(all(test, feature = "http"))]
mod tests {
    use super::*;

    fn note(n: u64) -> Message {
        protocol::notification(
            "notifications/progress",
            serde_json::json!({ "progress": n }),
        )
    }

    #[tokio::test]
    async fn a_lane_makes_no_queue_until_something_is_sent() {
        let lane = Lane::new(4);
        let out = Outbound::Lazy(lane.clone());
        assert!(lane.tx.get().is_none(), "no queue before the first send");
        assert!(
            lane.take().is_none(),
            "nothing to take when nothing was sent"
        );
        drop(out);
    }

    #[tokio::test]
    async fn what_is_sent_before_the_take_arrives_in_order_then_the_queue_ends() {
        let lane = Lane::new(4);
        let out = Outbound::Lazy(lane.clone());
        assert!(out.send(note(1)).await);
        assert!(out.send(note(2)).await);
        let mut rx = lane.take().expect("the first send made the queue");
        assert!(lane.take().is_none(), "the receiving end is taken once");
        drop((out, lane));
        assert_eq!(rx.recv().await, Some(note(1)));
        assert_eq!(rx.recv().await, Some(note(2)));
        assert_eq!(rx.recv().await, None, "every sender gone: the queue ends");
    }

    #[tokio::test]
    async fn a_send_after_the_answer_went_out_fails_instead_of_filling_a_queue_nobody_reads() {
        let lane = Lane::new(1);
        let out = Outbound::Lazy(lane.clone());
        // The exchange answered without a queue: nothing was sent in the handler's first poll.
        assert!(lane.take().is_none());
        // A send after that (a context kept alive past its answer) fails at once, every time;
        // with a queue nobody reads, the second send would wait forever.
        assert!(!out.send(note(1)).await);
        assert!(!out.send(note(2)).await);
        out.gone().await;
    }

    #[tokio::test]
    async fn a_queue_made_for_a_handler_that_goes_on_is_open_until_its_senders_are_gone() {
        let lane = Lane::new(4);
        let out = Outbound::Lazy(lane.clone());
        lane.sender();
        let mut rx = lane.take().expect("made before the take");
        drop(lane);
        assert!(out.send(note(7)).await);
        assert_eq!(rx.recv().await, Some(note(7)));
        drop(rx);
        assert!(!out.send(note(8)).await, "the reader is gone");
        out.gone().await;
    }

    #[tokio::test]
    async fn a_closed_outbound_refuses_every_send() {
        let out = Outbound::closed();
        assert!(!out.send(note(1)).await);
        out.gone().await;
    }
}
