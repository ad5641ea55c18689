//! The methods only 2026-07-28 serves (`server/discover`, `subscriptions/listen`) in front of
//! the shared ones (custom methods and extensions among them, `custom.rs`).

use super::{Answered, Boxed, ClientFacts, Conn, Engine};
use crate::era::ModernMeta;
use crate::handler::Handler;
use crate::protocol::{DiscoverResult, MODERN_VERSIONS, Method, Request, Revision};
use futures_util::future::Either;
use std::future::{Future, ready};

impl<H: Handler> Engine<H> {
    /// Serves a stateless 2026-07-28 request whose `_meta` the transport checked. Not an
    /// `async fn`, for the reason [`Engine::method`] is not: the methods only this revision
    /// has are rare and served boxed, the shared ones by `method`'s future itself.
    pub(super) fn modern<'a>(
        &'a self,
        req: Request,
        meta: ModernMeta,
        conn: &'a Conn,
    ) -> impl Future<Output = Answered> + Send + 'a {
        let facts = || ClientFacts::modern(meta, &self.config.client_policy);
        match req.method {
            Method::Discover => Either::Left(Either::Left(ready(self.discover()))),
            Method::Listen => Either::Left(Either::Right(Box::pin(async move {
                self.listen(&req, conn, facts()).await
            }) as Boxed<'a>)),
            _ => {
                let facts = facts();
                Either::Right(self.method(req, conn, facts))
            }
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
