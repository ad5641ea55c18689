//! [`Endpoint`]: what every request of one MCP endpoint is served with, shared by the POST, GET
//! and DELETE paths (`modern.rs`, `legacy.rs`), the HTTP+SSE transport (`sse/`) and every clone
//! of its service.

use super::config::HttpConfig;
use super::session::Sessions;
use super::sse::SseSessions;
use crate::dispatch::Engine;
use crate::handler::Handler;

/// The engine behind an endpoint, the endpoint's settings and its live 2025-11-25 sessions.
pub(crate) struct Endpoint<H> {
    /// Serves the requests.
    pub engine: Engine<H>,
    /// What the transport accepts and how long it keeps things.
    pub config: HttpConfig,
    /// The live 2025-11-25 sessions.
    pub sessions: Sessions,
    /// The live sessions of the HTTP+SSE transport (2024-11-05).
    pub sse: SseSessions,
    /// The largest request body, in bytes.
    pub limit: usize,
    /// The resource server guarding the endpoint, when it is protected.
    #[cfg(feature = "auth")]
    pub protection: Option<std::sync::Arc<super::auth::Protection>>,
}

impl<H: Handler> Endpoint<H> {
    /// An endpoint for `engine` with `config`; bodies default to the server's message limit.
    pub(crate) fn new(engine: Engine<H>, config: HttpConfig) -> Endpoint<H> {
        let limit = config
            .max_body_bytes
            .unwrap_or(engine.config.max_message_bytes);
        let declared = engine.handler.declared_scopes();
        #[cfg(feature = "auth")]
        let protected = config.protection.is_some();
        #[cfg(not(feature = "auth"))]
        let protected = false;
        if !protected && !declared.is_empty() {
            // Fail-open on an unprotected transport (design §26): said once, loudly.
            tracing::warn!(
                "scopes are declared but not enforced: this HTTP endpoint has no resource \
                 server (HttpConfig::protect, feature `auth`)"
            );
        }
        #[cfg(feature = "auth")]
        let protection = config
            .protection
            .clone()
            .map(|rs| super::auth::Protection::new(rs, &declared))
            .map(std::sync::Arc::new);
        Endpoint {
            engine,
            config,
            sessions: Sessions::default(),
            sse: SseSessions::default(),
            limit,
            #[cfg(feature = "auth")]
            protection,
        }
    }

    /// A fresh step-up watch for one request, on a protected endpoint.
    pub(crate) fn step_up_watch(&self) -> Option<super::exchange::StepUpWatch> {
        #[cfg(feature = "auth")]
        if let Some(p) = &self.protection {
            return Some(p.watch());
        }
        None
    }

    /// The paths this endpoint answers when served on its own: the endpoint's, then the
    /// metadata document's.
    pub(crate) fn serves(&self, path: &str) -> bool {
        #[cfg(feature = "auth")]
        if self.protection.as_ref().is_some_and(|p| p.serves(path)) {
            return true;
        }
        path == self.config.path
            || self
                .config
                .sse
                .as_ref()
                .is_some_and(|p| path == p.stream || path == p.messages)
    }
}
