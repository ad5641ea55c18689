//! [`Endpoint`]: what every request of one MCP endpoint is served with, shared by the POST, GET
//! and DELETE paths (`modern.rs`, `legacy.rs`) and by every clone of its service.

use super::config::HttpConfig;
use super::session::Sessions;
use crate::dispatch::Engine;

/// The engine behind an endpoint, the endpoint's settings and its live 2025-11-25 sessions.
pub(crate) struct Endpoint<H> {
    /// Serves the requests.
    pub engine: Engine<H>,
    /// What the transport accepts and how long it keeps things.
    pub config: HttpConfig,
    /// The live 2025-11-25 sessions.
    pub sessions: Sessions,
    /// The largest request body, in bytes.
    pub limit: usize,
}

impl<H> Endpoint<H> {
    /// An endpoint for `engine` with `config`; bodies default to the server's message limit.
    pub(crate) fn new(engine: Engine<H>, config: HttpConfig) -> Endpoint<H> {
        let limit = config
            .max_body_bytes
            .unwrap_or(engine.config.max_message_bytes);
        Endpoint {
            engine,
            config,
            sessions: Sessions::default(),
            limit,
        }
    }
}
