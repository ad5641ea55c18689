//! The methods only 2026-07-28 serves (`server/discover`, `subscriptions/listen`) in front of
//! the shared ones.

use super::{Answered, ClientFacts, Conn, Engine};
use crate::era::ModernMeta;
use crate::handler::Handler;
use crate::protocol::{DiscoverResult, MODERN_VERSIONS, Method, Request, Revision};
use tracing::Span;

impl<H: Handler> Engine<H> {
    /// Serves a stateless 2026-07-28 request whose `_meta` the transport checked.
    pub(super) async fn modern(&self, req: Request, meta: ModernMeta, conn: &Conn) -> Answered {
        Span::current().record("revision", Revision::V2026_07_28.as_str());
        let facts = || ClientFacts::modern(meta, &self.config.client_policy);
        match req.method {
            Method::Discover => self.discover(),
            Method::Listen => self.listen(&req, conn, facts()).await,
            ref m if m.is_task_method() => self.task_method(req, conn, facts()).await,
            _ => self.method(req, conn, facts()).await,
        }
    }

    /// `server/discover`: the versions served per request, and what the server offers.
    fn discover(&self) -> Answered {
        let info = &self.config.info;
        let result = DiscoverResult {
            supported_versions: MODERN_VERSIONS,
            capabilities: &info.capabilities,
            instructions: info.instructions.as_deref(),
        };
        self.complete(&Method::Discover, Revision::V2026_07_28, result, false)
    }
}
