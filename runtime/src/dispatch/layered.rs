//! A request through the server's middleware (`Server::layer`, design §32): its view for the
//! layers, and the innermost service, which routes it as [`Engine::answer`] does. Only a
//! server with layers comes here.

use super::{Answered, Conn, Engine, Route};
use crate::handler::Handler;
use crate::middleware::{self, Direction, McpRequest, McpResponse, Stack, View};
use crate::policy::ClientSide;
use crate::protocol::{Body, Request, Revision};
use std::future::Future;
use std::sync::Arc;

impl<H: Handler> Engine<H> {
    /// Serves `req` through `stack`: the layers see its view, the innermost service routes it.
    pub(super) fn layered(
        &self,
        stack: &Stack,
        req: Request,
        route: Route,
        conn: &Conn,
    ) -> impl Future<Output = Answered> + Send + 'static {
        let view = self.view(&req, &route, conn);
        let (engine, conn) = (self.clone(), conn.clone());
        let next =
            Box::pin(async move { McpResponse::served(engine.answer(req, route, &conn).await) });
        let request = McpRequest::new(view, next);
        let stack = stack.clone();
        async move { middleware::run(&stack, request).await.into_answered() }
    }

    /// What the layers see of an inbound request.
    fn view(&self, req: &Request, route: &Route, conn: &Conn) -> View {
        let (revision, client) = match route {
            Route::Modern(Ok(meta)) => {
                let meta = meta.get();
                let client = ClientSide::narrowed(
                    meta.client_capabilities.clone(),
                    meta.client_info.clone(),
                    &self.config.client_policy,
                );
                (Revision::V2026_07_28, Some(Arc::new(client)))
            }
            Route::Modern(Err(_)) => (Revision::V2026_07_28, None),
            Route::Legacy(session) => (session.revision, Some(session.client.clone())),
        };
        let target = match &req.params.body {
            Body::Target(Ok(p)) => Some(p),
            _ => None,
        };
        let (flow, round) = match (target, revision.is_modern()) {
            (Some(p), true) if p.request_state.is_some() => {
                self.peek_flow(&req.method, conn, p).unwrap_or_default()
            }
            _ => (None, 0),
        };
        View {
            direction: Direction::Inbound,
            notification: false,
            method: req.method.clone(),
            name: target.map(|p| p.target.clone()),
            revision,
            client,
            principal: conn.principal.clone(),
            request_id: Some(req.id.clone()),
            flow,
            round,
        }
    }
}
