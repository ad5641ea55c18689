//! The connection's requests in flight (by id, each with its cancellation) and those read
//! while `max_in_flight` were running, waiting in order for a place.

use crate::batch_reply::BatchPart;
use crate::dispatch::Route;
use crate::protocol::{Request, RequestId};
use crate::sync::lock;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

/// A request in flight: its cancellation, whether it is a listen stream (which never ends
/// by itself, so end of input cancels it at once), and its serial number on the connection.
/// A cancelled request leaves the table at once and its id may be reused while its task is
/// still ending; the task then removes only the entry with its own serial, never the new
/// request's.
pub(super) struct Flight {
    pub(super) cancel: CancellationToken,
    pub(super) listen: bool,
    pub(super) serial: u64,
}

pub(super) type InFlight = Arc<Mutex<HashMap<RequestId, Flight>>>;

/// Requests read while `max_in_flight` were running, each with its route (chosen when it was
/// read) and the length of its line, in the order they came.
#[derive(Default)]
pub(super) struct Waiting {
    requests: VecDeque<(Request, Route, usize, Option<BatchPart>)>,
    bytes: usize,
}

impl Waiting {
    /// Whether the reader must stop: the waiting lines add up to the largest message's size.
    pub(super) fn full(&self, max_message_bytes: usize) -> bool {
        !self.requests.is_empty() && self.bytes >= max_message_bytes
    }

    pub(super) fn push(
        &mut self,
        req: Request,
        route: Route,
        bytes: usize,
        part: Option<BatchPart>,
    ) {
        self.bytes += bytes;
        self.requests.push_back((req, route, bytes, part));
    }

    pub(super) fn pop(&mut self) -> Option<(Request, Route, Option<BatchPart>)> {
        let (req, route, bytes, part) = self.requests.pop_front()?;
        self.bytes -= bytes;
        Some((req, route, part))
    }

    /// Whether no request waits.
    pub(super) fn is_empty(&self) -> bool {
        self.requests.is_empty()
    }

    /// Drops the waiting listen streams: at end of input one would end at once.
    pub(super) fn drop_listens(&mut self) {
        let bytes = &mut self.bytes;
        self.requests.retain(|(r, _, len, _)| {
            let keep = r.method != crate::protocol::Method::Listen;
            if !keep {
                *bytes -= len;
            }
            keep
        });
    }

    /// Drops the first waiting request with `id`: a cancelled request that never started.
    /// Its batch, if it came in one, is told it ends unanswered.
    pub(super) fn cancel(&mut self, id: &RequestId) -> Option<Option<BatchPart>> {
        let at = self.requests.iter().position(|(r, ..)| &r.id == id)?;
        let (_, _, bytes, part) = self.requests.remove(at).expect("found above");
        self.bytes -= bytes;
        Some(part)
    }
}

/// Forgets a finished request: the entry under `id` if it is still this request's (`serial`).
/// It is called before the answer is sent, so the count of requests in flight (which
/// `serve_io` keeps at most `max_in_flight`) drops first: a client that waits for an answer
/// may always send another.
pub(super) fn forget(in_flight: &InFlight, id: &RequestId, serial: u64) {
    let mut map = lock(in_flight);
    if map.get(id).is_some_and(|f| f.serial == serial) {
        map.remove(id);
    }
}
