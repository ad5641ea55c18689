//! [`Server`]: a [`Handler`] plus its configuration, shared by every transport.

use crate::handler::{Handler, ServerInfo};
use crate::listen::Notifier;
use crate::state::{Clock, KeyRing, SystemClock};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// Runtime settings shared by every request of a server.
#[derive(Clone)]
pub(crate) struct Config {
    /// Seals and opens `requestState`.
    pub keys: KeyRing,
    /// How long a sealed `requestState` stays valid.
    pub state_ttl: Duration,
    /// Rounds after which a multi-round request is refused.
    pub max_rounds: u32,
    /// Largest sealed `requestState`, in bytes (memo values count).
    pub max_state_bytes: usize,
    /// How long a 2025-11-25 server-to-client request waits for a person to answer.
    pub ask_timeout: Duration,
    /// Largest inbound message, in bytes.
    pub max_message_bytes: usize,
    /// Wall clock for expiry.
    pub clock: Arc<dyn Clock>,
    /// Bound into state so another server's state is refused even under a shared key.
    pub audience: String,
    /// The handler's fixed description.
    pub info: ServerInfo,
}

/// A server ready to be served over a transport: the [`Handler`] and its settings.
///
/// `Server` is cheap to clone (two `Arc`s); clones share everything.
pub struct Server<H> {
    pub(crate) handler: Arc<H>,
    pub(crate) config: Arc<Config>,
    /// Change announcements for listen streams (shared by clones).
    pub(crate) hub: Notifier,
}

impl<H> Clone for Server<H> {
    fn clone(&self) -> Self {
        Server {
            handler: self.handler.clone(),
            config: self.config.clone(),
            hub: self.hub.clone(),
        }
    }
}

impl<H> fmt::Debug for Server<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("info", &self.config.info)
            .finish_non_exhaustive()
    }
}

impl<H: Handler> Server<H> {
    /// A server with default settings: a random state key (right for one process; a fleet
    /// must share a ring, see [`Server::state_keys`]), 10-minute state expiry, 16 rounds,
    /// 64 KiB of state, 5-minute answers on 2025-11-25 and 4 MiB messages.
    pub fn new(handler: H) -> Self {
        let info = handler.info();
        let audience = info.implementation.name.clone();
        Server {
            handler: Arc::new(handler),
            config: Arc::new(Config {
                keys: KeyRing::random(),
                state_ttl: Duration::from_secs(600),
                max_rounds: 16,
                max_state_bytes: 64 * 1024,
                ask_timeout: Duration::from_secs(300),
                max_message_bytes: 4 * 1024 * 1024,
                clock: Arc::new(SystemClock),
                audience,
                info,
            }),
            hub: Notifier::default(),
        }
    }

    fn config_mut(&mut self) -> &mut Config {
        Arc::make_mut(&mut self.config)
    }

    /// The key ring that seals `requestState`. Every instance behind one load balancer needs
    /// the same ring so any of them can serve any retry.
    pub fn state_keys(mut self, keys: KeyRing) -> Self {
        self.config_mut().keys = keys;
        self
    }
    /// How long a `requestState` is accepted after it was issued.
    pub fn state_ttl(mut self, ttl: Duration) -> Self {
        self.config_mut().state_ttl = ttl;
        self
    }
    /// How many `InputRequiredResult`s one request may answer (default 16); the retry after the
    /// last of them that still asks for input gets `-32602`, telling the client to start again.
    pub fn max_rounds(mut self, rounds: u32) -> Self {
        self.config_mut().max_rounds = rounds;
        self
    }
    /// The largest sealed `requestState`, in bytes.
    pub fn max_state_bytes(mut self, bytes: usize) -> Self {
        self.config_mut().max_state_bytes = bytes;
        self
    }
    /// How long a 2025-11-25 server-to-client request waits for its answer.
    pub fn ask_timeout(mut self, timeout: Duration) -> Self {
        self.config_mut().ask_timeout = timeout;
        self
    }
    /// The largest inbound message, in bytes.
    pub fn max_message_bytes(mut self, bytes: usize) -> Self {
        self.config_mut().max_message_bytes = bytes;
        self
    }
    /// The clock for state expiry (tests inject a [`ManualClock`](crate::state::ManualClock)).
    pub fn clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.config_mut().clock = clock;
        self
    }
    /// The audience bound into state (default: the server's name).
    pub fn audience(mut self, audience: impl Into<String>) -> Self {
        self.config_mut().audience = audience.into();
        self
    }
    /// The server's description.
    pub fn info(&self) -> &ServerInfo {
        &self.config.info
    }
    /// The handler.
    pub fn handler(&self) -> &H {
        &self.handler
    }
}
