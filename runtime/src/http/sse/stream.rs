//! The SSE stream of one HTTP+SSE session: the `endpoint` event first, then each message of
//! the session as a `message` event, keep-alive comments between them, until the client goes
//! away, stops reading, idles, its token expires or the server drains it.

use super::table::SseSession;
use crate::cx::Principal;
use crate::http::body;
use crate::http::exchange::ticker;
use crate::identity::token_expiry;
use crate::protocol::Message;
use bytes::Bytes;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// The deadlines of a stream (`HttpConfig`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Deadlines {
    /// How often a quiet stream gets a `:` comment; the idle check runs as often.
    pub keep_alive: Duration,
    /// How long a frame may wait for the client to take it.
    pub stall: Duration,
    /// How long a session may go without a POST while nothing is in flight.
    pub idle: Duration,
}

/// Why a stream ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// The client closed it.
    Gone,
    /// A frame waited `stall` for the client to read.
    Stalled,
    /// No POST for `idle`, nothing in flight.
    Idle,
    /// The token that opened it is no longer accepted.
    Expired,
    /// The session closed (shutdown) and every request holding its queue was answered.
    Drained,
}

/// The `endpoint` event: where the client POSTs its messages (2024-11-05 § Transports, HTTP
/// with SSE: "the server MUST send an `endpoint` event containing a URI"). A path, which the
/// official clients resolve against the stream's URL and check is on its origin.
pub(crate) fn endpoint_event(uri: &str) -> Bytes {
    Bytes::from(format!("event: endpoint\ndata: {uri}\n\n"))
}

/// One message as a `message` event, on a single `data:` line (a message's JSON text never
/// holds a raw newline).
pub(crate) fn message_event(msg: &Message) -> Bytes {
    Bytes::from(format!("event: message\ndata: {}\n\n", msg.as_str()))
}

/// Feeds the stream `out` from the session's queue `rx`, the `endpoint` event first.
pub(crate) async fn pump(
    session: &SseSession,
    endpoint: &str,
    mut rx: mpsc::Receiver<Message>,
    out: &mpsc::Sender<Bytes>,
    deadlines: Deadlines,
    who: Option<&Principal>,
) -> End {
    if let Err(end) = send(out, endpoint_event(endpoint), deadlines.stall).await {
        return end;
    }
    let mut tick = ticker(deadlines.keep_alive);
    let expiry = token_expiry(who);
    tokio::pin!(expiry);
    loop {
        tokio::select! {
            biased;
            _ = out.closed() => return End::Gone,
            _ = &mut expiry => return End::Expired,
            m = rx.recv() => match m {
                Some(m) => {
                    if let Err(end) = send(out, message_event(&m), deadlines.stall).await {
                        return end;
                    }
                }
                None => return End::Drained,
            },
            _ = tick.tick() => {
                if session.idle(Instant::now(), deadlines.idle) {
                    return End::Idle;
                }
                // A stream whose frames are not taken gets no comment: the next message
                // meets the stall deadline.
                let _ = out.try_send(body::sse_keep_alive());
            }
        }
    }
}

/// Hands one frame to the response body within `stall`.
async fn send(out: &mpsc::Sender<Bytes>, frame: Bytes, stall: Duration) -> Result<(), End> {
    match tokio::time::timeout(stall, out.send(frame)).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(_)) => Err(End::Gone),
        Err(_) => Err(End::Stalled),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::session::Limits;
    use crate::http::sse::table::SseSessions;
    use crate::protocol::{RequestId, notification};
    use serde_json::json;

    fn deadlines() -> Deadlines {
        Deadlines {
            keep_alive: Duration::from_secs(15),
            stall: Duration::from_secs(30),
            idle: Duration::from_secs(1800),
        }
    }

    fn open() -> (std::sync::Arc<SseSession>, mpsc::Receiver<Message>) {
        let limits = Limits {
            idle: Duration::from_secs(1800),
            max: 9,
            per_client: 9,
        };
        let (_, s, rx) = SseSessions::default()
            .open(None, "x".into(), limits, 2)
            .expect("opens");
        (s, rx)
    }

    #[test]
    fn events_are_named_and_single_lines() {
        let m = Message::of(&json!({"a": "line\nbreak"}));
        assert_eq!(
            &message_event(&m)[..],
            b"event: message\ndata: {\"a\":\"line\\nbreak\"}\n\n"
        );
        assert_eq!(
            &endpoint_event("/messages?session_id=ab")[..],
            b"event: endpoint\ndata: /messages?session_id=ab\n\n"
        );
    }

    /// A client that never reads: once the body's frames and the queue are full, the next
    /// message waits `stall` and the stream ends, on a paused clock.
    #[tokio::test(start_paused = true)]
    async fn a_stream_never_read_ends_at_the_stall_deadline() {
        let (session, rx) = open();
        let (btx, _never_read) = mpsc::channel::<Bytes>(1);
        let tx = session.outbound().expect("open");
        let filler = tokio::spawn(async move {
            for n in 0.. {
                let note = notification("notifications/message", json!({"n": n}));
                if tx.send(note).await.is_err() {
                    return n;
                }
            }
            unreachable!()
        });
        let started = tokio::time::Instant::now();
        let end = pump(&session, "/m", rx, &btx, deadlines(), None).await;
        assert_eq!(end, End::Stalled);
        assert_eq!(started.elapsed(), Duration::from_secs(30));
        drop(btx);
        // The queue's reader is gone: the writer's next send fails, having queued at most
        // the queue's capacity and the frame that stalled.
        let queued = filler.await.expect("filler");
        assert!(queued <= 4, "{queued} messages were taken");
    }

    #[tokio::test(start_paused = true)]
    async fn an_idle_session_ends_and_a_busy_one_does_not() {
        let (session, rx) = open();
        let (btx, mut brx) = mpsc::channel::<Bytes>(64);
        let reader = tokio::spawn(async move { while brx.recv().await.is_some() {} });
        let d = Deadlines {
            idle: Duration::from_secs(60),
            ..deadlines()
        };
        let busy = tokio_util::sync::CancellationToken::new();
        session
            .flights()
            .register(&RequestId::Number(1), &busy, 8)
            .expect("registers");
        let started = tokio::time::Instant::now();
        {
            let pumping = pump(&session, "/m", rx, &btx, d, None);
            tokio::pin!(pumping);
            // Busy for five minutes: still open.
            assert!(
                tokio::time::timeout(Duration::from_secs(300), &mut pumping)
                    .await
                    .is_err()
            );
            session.flights().cancel_all();
            assert_eq!(pumping.await, End::Idle);
        }
        assert!(started.elapsed() < Duration::from_secs(300 + 60 + 16));
        drop(btx);
        reader.await.expect("reader");
    }
}
