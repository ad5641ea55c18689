//! [`LegacySession`]: what a session of a handshake revision (2024-11-05 to 2025-11-25)
//! negotiated at `initialize` and what it changed since (log level, resource subscriptions).
//! One stdio process after `initialize`, one HTTP `Mcp-Session-Id`, or one HTTP+SSE stream.

use crate::backchannel::BackChannel;
use crate::notify::Change;
use crate::notify::filter::{Advertised, too_many_uris, uri_too_long};
use crate::policy::ClientSide;
use crate::protocol::{Error, LoggingLevel, MAX_URI_BYTES, Revision};
use crate::sync::lock;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

/// A session of a handshake revision.
#[derive(Debug)]
pub(crate) struct LegacySession {
    /// The negotiated revision: what the session is sent is shaped for it.
    pub revision: Revision,
    /// What the client declared at `initialize` (capabilities and name), as the server's
    /// client policy narrowed it; every request of the session shares it.
    pub client: Arc<ClientSide>,
    /// Server-to-client requests of this session.
    pub back: Arc<BackChannel>,
    /// `logging/setLevel`; no log notifications until it is set.
    log_level: Mutex<Option<LoggingLevel>>,
    /// `resources/subscribe`d URIs.
    subscriptions: Mutex<BTreeSet<String>>,
}

impl LegacySession {
    /// A session that negotiated `revision` with `client`.
    pub(crate) fn new(revision: Revision, client: Arc<ClientSide>) -> LegacySession {
        LegacySession {
            revision,
            client,
            back: Arc::new(BackChannel::default()),
            log_level: Mutex::new(None),
            subscriptions: Mutex::new(BTreeSet::new()),
        }
    }

    /// The level `logging/setLevel` chose, if any.
    pub(crate) fn log_level(&self) -> Option<LoggingLevel> {
        *lock(&self.log_level)
    }

    /// `logging/setLevel`.
    pub(crate) fn set_log_level(&self, level: LoggingLevel) {
        *lock(&self.log_level) = Some(level);
    }

    /// `resources/subscribe` (`on`) or `resources/unsubscribe` (`!on`) of `uri`; a
    /// subscription beyond `max` URIs, or to a URI longer than [`MAX_URI_BYTES`], is refused.
    pub(crate) fn subscribe(&self, uri: &str, on: bool, max: usize) -> Result<(), Error> {
        let mut subscriptions = lock(&self.subscriptions);
        if !on {
            subscriptions.remove(uri);
        } else if uri.len() > MAX_URI_BYTES {
            return Err(uri_too_long());
        } else if !subscriptions.contains(uri) {
            if subscriptions.len() >= max {
                return Err(too_many_uris(max));
            }
            subscriptions.insert(uri.to_owned());
        }
        Ok(())
    }

    /// What the session receives outside any request (HTTP GET stream, stdio): the list
    /// changes the server advertises, and updates of the URIs it subscribed to.
    pub(crate) fn wants(&self, advertised: Advertised, change: &Change) -> bool {
        match change {
            Change::ToolsListChanged => advertised.tools,
            Change::PromptsListChanged => advertised.prompts,
            Change::ResourcesListChanged => advertised.resources,
            Change::ResourceUpdated(uri) => {
                advertised.subscribe && lock(&self.subscriptions).contains(uri)
            }
        }
    }
}
