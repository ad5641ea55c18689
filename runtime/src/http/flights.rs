//! The requests in flight of one HTTP session (a Streamable HTTP 2025-era session or an
//! HTTP+SSE one): each one's cancellation and serial number. A cancelled request leaves at once
//! and its id may be reused while it is still ending; it then forgets only the entry with its
//! own serial (design §20, "Serial numbers in the in-flight tables").

use crate::protocol::RequestId;
use crate::sync::lock;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio_util::sync::CancellationToken;

/// The requests in flight of one session.
#[derive(Debug, Default)]
pub(crate) struct Flights {
    map: Mutex<HashMap<RequestId, (u64, CancellationToken)>>,
    serials: AtomicU64,
}

/// Why a request was not registered.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// A request with this id is in flight.
    Duplicate,
    /// As many requests are in flight as may be.
    Full,
}

impl Flights {
    /// Records a request in flight, at most `max` at once; its serial number.
    pub fn register(
        &self,
        id: &RequestId,
        token: &CancellationToken,
        max: usize,
    ) -> Result<u64, Refused> {
        let mut map = lock(&self.map);
        if map.contains_key(id) {
            return Err(Refused::Duplicate);
        }
        if map.len() >= max.max(1) {
            return Err(Refused::Full);
        }
        let serial = self.serials.fetch_add(1, Ordering::Relaxed);
        map.insert(id.clone(), (serial, token.clone()));
        Ok(serial)
    }

    /// Forgets a finished request: the entry under `id` if it is still that request's.
    pub fn finish(&self, id: &RequestId, serial: u64) {
        let mut map = lock(&self.map);
        if map.get(id).is_some_and(|(s, _)| *s == serial) {
            map.remove(id);
        }
    }

    /// `notifications/cancelled`: cancels a request in flight (unknown ids are ignored).
    pub fn cancel(&self, id: &RequestId) {
        if let Some((_, t)) = lock(&self.map).remove(id) {
            t.cancel();
        }
    }

    /// Cancels every request in flight.
    pub fn cancel_all(&self) {
        for (_, (_, t)) in lock(&self.map).drain() {
            t.cancel();
        }
    }

    /// Whether none is in flight.
    pub fn is_empty(&self) -> bool {
        lock(&self.map).is_empty()
    }
}
