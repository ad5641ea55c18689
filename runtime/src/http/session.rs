//! The live 2025-11-25 sessions of one endpoint, keyed by `Mcp-Session-Id`.
//!
//! 2025-11-25 § Transports, Session Management: the id is minted at `initialize`, "globally
//! unique and cryptographically secure", visible ASCII only; requests naming an unknown or
//! ended session get 404; DELETE ends a session.

use super::config::HttpConfig;
use super::flights::Flights;
use crate::cx::Principal;
use crate::protocol::RequestId;
use crate::session::LegacySession;
use crate::sync::lock;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

/// One session and what the transport tracks for it.
#[derive(Debug)]
pub(crate) struct Entry {
    pub session: Arc<LegacySession>,
    /// The principal that opened the session: only it may use the id (2025-11-25 § Security,
    /// "bind session IDs to user-specific information"), so a leaked id alone is not enough.
    owner: Option<String>,
    /// Who the session counts against for `max_sessions_per_client`.
    client: String,
    /// Cancelled when the session ends (DELETE, expiry, shutdown); ends its GET stream.
    pub ended: CancellationToken,
    /// Requests in flight.
    in_flight: Flights,
    get_open: AtomicBool,
    last_seen: Mutex<Instant>,
}

impl Entry {
    /// Records a request in flight and returns its serial; `None` when its id is in use.
    pub fn register(&self, id: &RequestId, token: &CancellationToken) -> Option<u64> {
        self.in_flight.register(id, token, usize::MAX).ok()
    }
    /// Forgets a finished request: the entry under `id` if it is still that request's.
    pub fn finish(&self, id: &RequestId, serial: u64) {
        self.in_flight.finish(id, serial);
    }
    /// `notifications/cancelled`: cancels a request in flight (unknown ids are ignored).
    pub fn cancel(&self, id: &RequestId) {
        self.in_flight.cancel(id);
    }
    /// Claims the session's one GET stream; `false` when it is already open.
    pub fn open_get(&self) -> bool {
        self.get_open
            .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    }
    pub fn close_get(&self) {
        self.get_open.store(false, Ordering::SeqCst);
    }
    fn touch(&self) {
        *lock(&self.last_seen) = Instant::now();
    }
    /// No request in flight and no GET stream: the session may be evicted.
    fn quiet(&self) -> bool {
        self.in_flight.is_empty() && !self.get_open.load(Ordering::SeqCst)
    }
    fn idle(&self, now: Instant, ttl: Duration) -> bool {
        self.quiet() && now.duration_since(*lock(&self.last_seen)) > ttl
    }
    /// Ends the session: its GET stream closes and pending server-to-client requests fail.
    /// With `cancel_requests`, requests in flight are cancelled too (DELETE); at shutdown they
    /// are left to finish.
    fn end(&self, cancel_requests: bool) {
        self.ended.cancel();
        self.session.back.close();
        if cancel_requests {
            self.in_flight.cancel_all();
        }
    }
}

/// Why a session could not be opened.
#[derive(Debug)]
pub(crate) enum OpenError {
    /// `max_sessions` are live and every one is busy (a request in flight or a GET stream).
    Full,
    /// This client has `max_sessions_per_client` live and every one is busy.
    ClientFull,
    /// The operating system's random generator failed.
    NoRandom,
}

/// The session table.
#[derive(Debug, Default)]
pub(crate) struct Sessions {
    map: Mutex<HashMap<String, Arc<Entry>>>,
}

impl Sessions {
    /// The live session with this id, if `who` opened it.
    pub fn get(&self, id: &str, who: Option<&str>) -> Option<Arc<Entry>> {
        let entry = lock(&self.map).get(id).cloned()?;
        if entry.owner.as_deref() != who {
            return None;
        }
        entry.touch();
        Some(entry)
    }

    /// Stores a new session and mints its id. First drops the sessions idle for longer than
    /// `limits.idle` (no request in flight, no GET stream, unused). Then, when `client`
    /// already has `limits.per_client` sessions, ends its least recently used quiet one (no
    /// request in flight, no GET stream), and when the table holds `limits.max`, the least
    /// recently used quiet one of anybody's; a newcomer is refused only when those are all
    /// busy.
    pub fn open(
        &self,
        session: LegacySession,
        owner: Option<String>,
        client: String,
        limits: Limits,
    ) -> Result<String, OpenError> {
        let mut map = lock(&self.map);
        let now = Instant::now();
        map.retain(|_, e| {
            let keep = !e.idle(now, limits.idle);
            if !keep {
                e.end(true);
            }
            keep
        });
        let mine = map.values().filter(|e| e.client == client).count();
        if mine >= limits.per_client {
            evict_one(&mut map, |e| e.client == client).ok_or(OpenError::ClientFull)?;
            tracing::debug!("a client's least recently used quiet session ended for its new one");
        }
        if map.len() >= limits.max {
            evict_one(&mut map, |_| true).ok_or(OpenError::Full)?;
            tracing::debug!("the least recently used quiet session ended for a new one");
        }
        let id = mint().ok_or(OpenError::NoRandom)?;
        let entry = Entry {
            session: Arc::new(session),
            owner,
            client,
            ended: CancellationToken::new(),
            in_flight: Flights::default(),
            get_open: AtomicBool::new(false),
            last_seen: Mutex::new(now),
        };
        map.insert(id.clone(), Arc::new(entry));
        tracing::debug!(live = map.len(), "2025-11-25 session opened");
        Ok(id)
    }

    /// Ends and forgets a session `who` opened (DELETE); `false` when there is none.
    pub fn close(&self, id: &str, who: Option<&str>) -> bool {
        let entry = {
            let mut map = lock(&self.map);
            match map.get(id) {
                Some(e) if e.owner.as_deref() == who => map.remove(id),
                _ => None,
            }
        };
        let Some(entry) = entry else {
            return false;
        };
        entry.end(true);
        tracing::debug!("2025-11-25 session ended by the client");
        true
    }

    /// Shutdown: every session's GET stream closes and its pending server-to-client requests
    /// fail (their tools take their fallbacks); requests in flight run on.
    pub fn end_all(&self) {
        for e in lock(&self.map).values() {
            e.end(false);
        }
    }
}

/// The bounds of the session table (`HttpConfig`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// Unused sessions older than this end.
    pub idle: Duration,
    /// The most live sessions.
    pub max: usize,
    /// The most live sessions of one client.
    pub per_client: usize,
}

impl Limits {
    /// The limits `cfg` sets.
    pub fn of(cfg: &HttpConfig) -> Limits {
        Limits {
            idle: cfg.session_idle,
            max: cfg.max_sessions,
            per_client: cfg.max_sessions_per_client,
        }
    }
}

/// Who a session counts against: its principal, else its peer's address, else one shared
/// bucket (a mounted service that passes neither).
pub(crate) fn client_of(principal: Option<&Principal>, peer: Option<IpAddr>) -> String {
    match (principal, peer) {
        (Some(p), _) => format!("principal {}", p.key()),
        (None, Some(ip)) => format!("address {ip}"),
        (None, None) => "anonymous".to_owned(),
    }
}

/// Ends and removes the least recently used quiet session among those `which` selects;
/// `None` when there is none.
fn evict_one(map: &mut HashMap<String, Arc<Entry>>, which: impl Fn(&Entry) -> bool) -> Option<()> {
    let id = map
        .iter()
        .filter(|(_, e)| which(e) && e.quiet())
        .min_by_key(|(_, e)| *lock(&e.last_seen))
        .map(|(id, _)| id.clone())?;
    if let Some(e) = map.remove(&id) {
        e.end(true);
    }
    Some(())
}

/// 128 random bits as 32 lowercase hex digits (visible ASCII, 0x21–0x7E).
pub(crate) fn mint() -> Option<String> {
    let mut raw = [0u8; 16];
    getrandom::fill(&mut raw).ok()?;
    Some(crate::canonical::hex(&raw))
}

/// A 2025-11-25 request registered in flight in its session: unregistered when dropped (when
/// its handler ends), so that its id may be used again.
pub(crate) struct InFlight {
    pub entry: Arc<Entry>,
    pub id: RequestId,
    pub serial: u64,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.entry.finish(&self.id, self.serial);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Entry {
        Entry {
            session: Arc::new(LegacySession::new(
                crate::protocol::Revision::V2025_11_25,
                Arc::new(crate::policy::ClientSide::narrowed(
                    crate::protocol::ClientCapabilities::default(),
                    None,
                    &crate::policy::ClientPolicy::new(),
                )),
            )),
            owner: None,
            client: String::new(),
            ended: CancellationToken::new(),
            in_flight: Flights::default(),
            get_open: AtomicBool::new(false),
            last_seen: Mutex::new(Instant::now()),
        }
    }

    /// Cancel, reuse the id, and the cancelled request finishing afterwards: the new request
    /// stays in flight and a second cancel reaches it.
    #[test]
    fn a_cancelled_request_finishing_late_keeps_the_reused_id() {
        let e = entry();
        let id = RequestId::Number(5);
        let (old, new) = (CancellationToken::new(), CancellationToken::new());
        let old_serial = e.register(&id, &old).expect("registers");
        e.cancel(&id);
        assert!(old.is_cancelled());
        let new_serial = e.register(&id, &new).expect("the id is free again");
        e.finish(&id, old_serial);
        let third = CancellationToken::new();
        assert!(e.register(&id, &third).is_none(), "still in flight");
        e.cancel(&id);
        assert!(new.is_cancelled(), "the second cancel is honoured");
        e.finish(&id, new_serial);
        assert!(e.in_flight.is_empty());
    }

    #[test]
    fn ids_are_random_visible_ascii() {
        let (a, b) = (mint().unwrap(), mint().unwrap());
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| (0x21..=0x7e).contains(&c)));
    }
}
