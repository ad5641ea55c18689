//! The live sessions of the HTTP+SSE transport (2024-11-05), keyed by the `session_id` their
//! stream announced, and what each one holds: the handshake session its `initialize` opened,
//! the stream's queue, the requests in flight.

use crate::http::flights::Flights;
use crate::http::session::{Limits, OpenError, mint};
use crate::protocol::Message;
use crate::session::LegacySession;
use crate::sync::lock;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// One HTTP+SSE session: one GET stream, and the POSTs naming it.
#[derive(Debug)]
pub(crate) struct SseSession {
    /// The principal whose request opened the stream: only it may POST to the session (a
    /// leaked `session_id` alone is not enough), as for a Streamable HTTP session.
    owner: Option<String>,
    /// Who the session counts against for `max_sessions_per_client`.
    client: String,
    /// The handshake session `initialize` opened (none before it), and the token that ends
    /// its change forwarder when another `initialize` replaces it.
    legacy: Mutex<Option<(Arc<LegacySession>, CancellationToken)>>,
    /// The stream's queue. Taken when the session closes (its stream ended, or the server
    /// drains): nothing new is queued, and the stream ends once the requests still holding a
    /// sender are answered.
    out: Mutex<Option<mpsc::Sender<Message>>>,
    /// Cancelled when the session closes.
    closing: CancellationToken,
    /// Requests in flight.
    in_flight: Flights,
    last_seen: Mutex<Instant>,
}

impl SseSession {
    /// A sender to the stream's queue; `None` once the session is closing.
    pub fn outbound(&self) -> Option<mpsc::Sender<Message>> {
        lock(&self.out).clone()
    }

    /// The handshake session, once `initialize` opened one.
    pub fn legacy(&self) -> Option<Arc<LegacySession>> {
        lock(&self.legacy).as_ref().map(|(s, _)| s.clone())
    }

    /// Installs the session a new `initialize` opened, ending the one before it (its pending
    /// questions fail, its change forwarder stops). Returns the token that stops the new
    /// session's change forwarder.
    pub fn set_legacy(&self, session: Arc<LegacySession>) -> CancellationToken {
        let stop = self.closing.child_token();
        let old = lock(&self.legacy).replace((session, stop.clone()));
        if let Some((old, old_stop)) = old {
            old.back.close();
            old_stop.cancel();
        }
        stop
    }

    /// The requests in flight.
    pub fn flights(&self) -> &Flights {
        &self.in_flight
    }

    /// Whether a request is in flight.
    pub fn busy(&self) -> bool {
        !self.in_flight.is_empty()
    }

    /// No request in flight and no POST for longer than `ttl`.
    pub fn idle(&self, now: Instant, ttl: Duration) -> bool {
        !self.busy() && now.duration_since(*lock(&self.last_seen)) > ttl
    }

    fn touch(&self) {
        *lock(&self.last_seen) = Instant::now();
    }

    /// Closes the session: nothing new is queued (the stream ends when the requests still
    /// running are answered), its change forwarder stops and its pending server-to-client
    /// requests fail (their tools take their fallbacks). Requests in flight run on.
    pub fn close(&self) {
        self.closing.cancel();
        lock(&self.out).take();
        if let Some((s, _)) = &*lock(&self.legacy) {
            s.back.close();
        }
    }
}

/// The session table of one endpoint's HTTP+SSE transport.
#[derive(Debug, Default)]
pub(crate) struct SseSessions {
    map: Mutex<HashMap<String, Arc<SseSession>>>,
    draining: AtomicBool,
}

/// Why a stream was not opened.
#[derive(Debug)]
pub(crate) enum OpenSseError {
    /// A session table limit, as for Streamable HTTP sessions.
    Limit(OpenError),
    /// The server is shutting down.
    Draining,
}

impl SseSessions {
    /// Opens a session for a new stream whose queue holds `queue` messages: its id, the
    /// session and the queue's receiving end. Every session holds its stream open, so none is
    /// quiet enough to end for a newcomer: at `limits.per_client` sessions of `client`, or
    /// `limits.max` in all, the newcomer is refused.
    pub fn open(
        &self,
        owner: Option<String>,
        client: String,
        limits: Limits,
        queue: usize,
    ) -> Result<(String, Arc<SseSession>, mpsc::Receiver<Message>), OpenSseError> {
        // Read under the table's lock, which `drain` holds while it sets the flag: a session
        // is either refused here or in the table `drain` closes.
        let mut map = lock(&self.map);
        if self.draining.load(Ordering::SeqCst) {
            return Err(OpenSseError::Draining);
        }
        if map.values().filter(|s| s.client == client).count() >= limits.per_client {
            return Err(OpenSseError::Limit(OpenError::ClientFull));
        }
        if map.len() >= limits.max {
            return Err(OpenSseError::Limit(OpenError::Full));
        }
        let id = mint().ok_or(OpenSseError::Limit(OpenError::NoRandom))?;
        let (tx, rx) = mpsc::channel(queue);
        let session = Arc::new(SseSession {
            owner,
            client,
            legacy: Mutex::new(None),
            out: Mutex::new(Some(tx)),
            closing: CancellationToken::new(),
            in_flight: Flights::default(),
            last_seen: Mutex::new(Instant::now()),
        });
        map.insert(id.clone(), session.clone());
        tracing::debug!(live = map.len(), "HTTP+SSE session opened");
        Ok((id, session, rx))
    }

    /// The live session with this id, if `who` opened it.
    pub fn get(&self, id: &str, who: Option<&str>) -> Option<Arc<SseSession>> {
        let session = lock(&self.map).get(id).cloned()?;
        if session.owner.as_deref() != who {
            return None;
        }
        session.touch();
        Some(session)
    }

    /// Forgets a session whose stream ended.
    pub fn remove(&self, id: &str) {
        lock(&self.map).remove(id);
    }

    /// Whether the server is shutting down.
    pub fn draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    /// Shutdown: no new stream opens, and every session closes (see [`SseSession::close`]):
    /// each stream ends once its requests in flight are answered.
    pub fn drain(&self) {
        let map = lock(&self.map);
        self.draining.store(true, Ordering::SeqCst);
        for s in map.values() {
            s.close();
        }
    }

    /// How many sessions are live.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        lock(&self.map).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(max: usize, per_client: usize) -> Limits {
        Limits {
            idle: Duration::from_secs(60),
            max,
            per_client,
        }
    }

    #[test]
    fn sessions_are_bounded_per_client_and_in_all_and_refused_while_draining() {
        let t = SseSessions::default();
        let open = |client: &str, l| t.open(None, client.into(), l, 4).map(|(id, ..)| id);
        open("a", limits(3, 2)).expect("first");
        open("a", limits(3, 2)).expect("second");
        assert!(matches!(
            open("a", limits(3, 2)),
            Err(OpenSseError::Limit(OpenError::ClientFull))
        ));
        let id = open("b", limits(3, 2)).expect("another client");
        assert!(matches!(
            open("c", limits(3, 2)),
            Err(OpenSseError::Limit(OpenError::Full))
        ));
        t.remove(&id);
        open("c", limits(3, 2)).expect("a place freed");
        t.drain();
        assert!(matches!(
            open("d", limits(9, 9)),
            Err(OpenSseError::Draining)
        ));
        assert_eq!(t.len(), 3);
    }

    #[test]
    fn only_the_owner_reaches_a_session_and_closing_takes_its_queue() {
        let t = SseSessions::default();
        let (id, s, _rx) = t
            .open(Some("alice".into()), "x".into(), limits(9, 9), 4)
            .expect("opens");
        assert!(t.get(&id, Some("mallory")).is_none());
        assert!(t.get(&id, None).is_none());
        assert!(t.get(&id, Some("alice")).is_some());
        assert!(s.outbound().is_some());
        s.close();
        assert!(s.outbound().is_none(), "nothing is queued once closing");
    }

    #[test]
    fn requests_in_flight_are_bounded_and_ids_unique() {
        use crate::http::flights::Refused;
        use crate::protocol::RequestId;
        let t = SseSessions::default();
        let (_, s, _rx) = t.open(None, "x".into(), limits(9, 9), 4).expect("opens");
        let (f, tok) = (s.flights(), CancellationToken::new());
        let one = f.register(&RequestId::Number(1), &tok, 2).expect("first");
        assert_eq!(
            f.register(&RequestId::Number(1), &tok, 2),
            Err(Refused::Duplicate)
        );
        f.register(&RequestId::Number(2), &tok, 2).expect("second");
        assert_eq!(
            f.register(&RequestId::Number(3), &tok, 2),
            Err(Refused::Full)
        );
        f.finish(&RequestId::Number(1), one);
        f.register(&RequestId::Number(3), &tok, 2)
            .expect("a place freed");
        assert!(!s.idle(Instant::now() + Duration::from_secs(3600), Duration::ZERO));
        f.cancel_all();
        assert!(tok.is_cancelled());
        assert!(s.idle(Instant::now() + Duration::from_secs(1), Duration::ZERO));
    }
}
