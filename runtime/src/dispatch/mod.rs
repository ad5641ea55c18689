//! The engine: serves one request of either revision with the handler, its configuration and
//! the notification hub, and shapes the answer.
//!
//! Transports (`stdio.rs`, `http/`) read messages, choose each request's era with
//! [`era::select`](crate::era::select) and hand it to [`Engine::handle`] with a [`Route`] and the
//! [`Conn`] it arrived on; [`Server`](crate::Server) is the public face on top of all of them.
//! Nothing here knows how a message travels.

mod custom;
mod drive;
mod layered;
mod legacy;
mod listen;
mod methods;
mod modern;
mod rounds;
mod skills;
mod task_run;
mod tasks;

use crate::backchannel::{BackChannel, Outbound};
use crate::config::Config;
use crate::cx::{AskState, Cx, Principal, RequestFacts};
use crate::era::ModernMeta;
use crate::extension::Extensions;
use crate::handler::Handler;
use crate::identity::StepUpSlot;
use crate::notify::Notifier;
use crate::policy::{ClientPolicy, ClientSide};
use crate::protocol::{
    self, CacheHint, ClientCapabilities, CompleteEnvelope, Enveloped, Error, JsonObject,
    LoggingLevel, Message, Meta, Method, ProgressToken, Request, RequestId, Revision, Written,
};
use crate::session::LegacySession;
use futures_util::FutureExt as _;
use futures_util::future::Either;
use serde::Serialize;
use serde_json::Value;
use std::future::{Future, ready};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

pub(crate) use drive::poll_first;

/// A handler with its configuration, notification hub and custom methods: everything a
/// request is served with. Cheap to clone (`Arc`s); clones share everything.
pub(crate) struct Engine<H> {
    /// The server's handler.
    pub handler: Arc<H>,
    /// The settings `Server`'s builders chose.
    pub config: Arc<Config>,
    /// Change announcements for listen streams and 2025-11-25 sessions.
    pub hub: Notifier,
    /// The custom methods and extensions served (Rondo's own tasks and skills among them).
    pub extensions: Arc<Extensions>,
}

impl<H> Clone for Engine<H> {
    fn clone(&self) -> Self {
        Engine {
            handler: self.handler.clone(),
            config: self.config.clone(),
            hub: self.hub.clone(),
            extensions: self.extensions.clone(),
        }
    }
}

/// What a transport knows about the connection a request arrived on.
#[derive(Debug, Clone)]
pub(crate) struct Conn {
    /// Where this request's notifications (and back-channel requests) go.
    pub out: Outbound,
    /// Who is calling.
    pub principal: Option<Principal>,
    /// Cancelled when the client cancels the request or drops its stream.
    pub cancel: CancellationToken,
    /// Where `cx.require_scopes` records a step-up, on a protected endpoint.
    pub step_up: Option<StepUpSlot>,
}

/// How the engine serves a request, as the transport decided with `era::select`.
#[derive(Debug)]
pub(crate) enum Route {
    /// Stateless 2026-07-28, with the request's `_meta` as the transport checked it (the error
    /// is the answer when the check failed).
    Modern(Result<ModernMeta, Error>),
    /// A request of this 2025-11-25 session.
    Legacy(Arc<LegacySession>),
}

/// The facts about the client of one request that do not depend on the method: from its
/// `_meta` (2026-07-28) or its session (2025-11-25). What the client declared is shared
/// ([`ClientSide`]): a session's requests all hold the one its `initialize` made.
pub(crate) struct ClientFacts {
    revision: Revision,
    client: Arc<ClientSide>,
    log_level: Option<LoggingLevel>,
    progress_token: Option<ProgressToken>,
    back: Option<Arc<BackChannel>>,
}

impl ClientFacts {
    /// A 2026-07-28 request's facts, its capabilities narrowed by `policy`.
    fn modern(meta: ModernMeta, policy: &ClientPolicy) -> ClientFacts {
        let meta = meta.into_inner();
        let client = ClientSide::narrowed(meta.client_capabilities, meta.client_info, policy);
        ClientFacts {
            revision: Revision::V2026_07_28,
            client: Arc::new(client),
            log_level: meta.log_level,
            progress_token: meta.progress_token,
            back: None,
        }
    }

    /// What the client declared, as the policy left it.
    fn capabilities(&self) -> &ClientCapabilities {
        &self.client.capabilities
    }

    /// A 2025-11-25 request's facts, from its session (whose capabilities the policy narrowed
    /// once, at `initialize`).
    fn legacy(session: &LegacySession, meta: Option<&Meta>) -> ClientFacts {
        ClientFacts {
            revision: session.revision,
            client: session.client.clone(),
            log_level: session.log_level(),
            progress_token: meta.and_then(Meta::progress_token),
            back: Some(session.back.clone()),
        }
    }
}

/// The answer to one request, its result written, before it becomes a JSON-RPC message;
/// `Ok(None)` when nothing may be sent (the request was cancelled).
pub(crate) type Answered = Result<Option<Written>, Error>;

/// A rare method's answer, boxed so that it does not size the future of every request.
type Boxed<'a> = std::pin::Pin<Box<dyn Future<Output = Answered> + Send + 'a>>;

impl<H: Handler> Engine<H> {
    /// An engine for `handler` with the default settings.
    pub(crate) fn new(handler: H) -> Self {
        let mut info = handler.info();
        let hub = handler.notifier().unwrap_or_default();
        let handler = Arc::new(handler);
        let extensions = custom::built_in(&handler, &mut info);
        Engine {
            hub,
            handler,
            config: Arc::new(Config::new(info)),
            extensions: Arc::new(extensions),
        }
    }

    /// Serves one request; `None` when it was cancelled (nothing may be sent for it then).
    ///
    /// Not an `async fn`, and routed before its future is made: an `async fn` would keep
    /// `req` and `route` in its future next to the future it hands them to, and this future
    /// is kept for every request in flight (design §23). Every layer below is routed the
    /// same way, so a `tools/call` is held as the one future of its rounds.
    pub(crate) fn handle<'a>(
        &'a self,
        req: Request,
        route: Route,
        conn: &'a Conn,
    ) -> impl Future<Output = Option<Message>> + Send + 'a {
        #[cfg(not(feature = "otel"))]
        let span = tracing::info_span!(
            "mcp.request",
            method = %req.method,
            id = %req.id,
            revision = tracing::field::Empty,
            name = tracing::field::Empty,
            round = tracing::field::Empty,
        );
        // The same fields, and the OpenTelemetry span's name and kind (design §33).
        #[cfg(feature = "otel")]
        let span = crate::otel::request_span(&req);
        let revision = match &route {
            Route::Modern(Ok(_)) => Some(Revision::V2026_07_28),
            Route::Legacy(session) => Some(session.revision),
            Route::Modern(Err(_)) => None,
        };
        if let Some(r) = revision {
            span.record("revision", r.as_str());
        }
        #[cfg(feature = "otel")]
        adopt(&span, &req, &route, revision);
        let id = req.id.clone();
        let answered = match &self.config.layers {
            None => Either::Left(self.answer(req, route, conn)),
            // Boxed: a server with layers pays for it, one without does not (design §32).
            Some(stack) => Either::Right(Box::pin(self.layered(stack, req, route, conn))),
        };
        // A combinator, not an `async` block: one would hold `answered` twice (captured, and
        // as the future it awaits).
        answered
            .map(move |answered| match answered {
                Ok(Some(result)) => Some(Message::response(&id, &result)),
                Ok(None) => None,
                Err(e) => {
                    tracing::debug!(code = e.code, message = %e.message, "request failed");
                    #[cfg(feature = "otel")]
                    crate::otel::failed(e.code, &e.message);
                    Some(Message::error(Some(&id), &e))
                }
            })
            .instrument(span)
    }

    /// Routes one request to its era's path: what [`Engine::handle`] runs, and what the
    /// innermost middleware service runs for it.
    fn answer<'a>(
        &'a self,
        req: Request,
        route: Route,
        conn: &'a Conn,
    ) -> impl Future<Output = Answered> + Send + 'a {
        match route {
            Route::Modern(Ok(meta)) => Either::Left(self.modern(req, meta, conn)),
            Route::Modern(Err(e)) => Either::Right(Either::Left(ready(Err(e)))),
            // The session is only read while the request is routed.
            Route::Legacy(session) => {
                Either::Right(Either::Right(self.legacy(req, &session, conn)))
            }
        }
    }

    /// The complete answer of `method`, written once: on 2026-07-28 with the envelope
    /// (`resultType`, `serverInfo`, and for cacheable methods `ttlMs`/`cacheScope`, which are
    /// `0`/`private` when the result is the caller's own: built from the client's answers, or
    /// a list filtered by its token); on 2025-11-25 as it is.
    fn complete(
        &self,
        method: &Method,
        revision: Revision,
        result: impl Serialize,
        private: bool,
    ) -> Answered {
        if !revision.is_modern() {
            return protocol::write(&result).map(Some);
        }
        let info = &self.config.info;
        let cache = method.is_cacheable().then_some(if private {
            CacheHint::ANSWERED
        } else {
            info.cache
        });
        let envelope = CompleteEnvelope::new(&self.config.info_text, cache);
        let result = Enveloped {
            result: &result,
            envelope: &envelope,
        };
        protocol::write(&result).map(Some)
    }

    /// The context of one request: its facts moved into one shared allocation.
    fn cx(&self, mut req: Parsed, conn: &Conn, facts: ClientFacts, asks: AskState) -> Cx {
        let flow = req.flow.take();
        Cx::new(Arc::new(self.facts(req, conn, facts)), asks, flow)
    }

    /// The facts of one request, moved out of what was parsed and what the client declared.
    fn facts(&self, req: Parsed, conn: &Conn, facts: ClientFacts) -> RequestFacts {
        if let Some(t) = &req.target {
            tracing::Span::current().record("name", t.as_str());
        }
        RequestFacts {
            revision: facts.revision,
            method: req.method,
            target: req.target,
            request_id: req.id,
            round: req.round,
            client: facts.client,
            log_level: facts.log_level,
            progress_token: facts.progress_token,
            principal: conn.principal.clone(),
            step_up: conn.step_up.clone(),
            arguments: req.arguments,
            cancel: conn.cancel.clone(),
            out: conn.out.clone(),
            back: facts.back,
            config: self.config.clone(),
            notifier: self.hub.clone(),
        }
    }
}

/// Gives the request's span its parent, from the trace context of the request's `_meta` (read
/// with the route's checked metadata on 2026-07-28, from the params on a session), and its
/// attributes. Out of line: only the `otel` build has it, and it holds nothing across an await.
#[cfg(feature = "otel")]
fn adopt(span: &tracing::Span, req: &Request, route: &Route, revision: Option<Revision>) {
    if span.is_disabled() {
        return;
    }
    let trace = match route {
        Route::Modern(Ok(meta)) => meta.get().trace.clone(),
        _ => req.params.meta.as_ref().and_then(Meta::trace),
    };
    crate::otel::adopt(span, req, revision, trace.as_deref());
}

/// What the engine read of a request for its context, moved into it.
pub(super) struct Parsed {
    id: RequestId,
    method: Method,
    target: Option<String>,
    arguments: JsonObject,
    round: u32,
    flow: Option<String>,
}

impl Parsed {
    /// A request of a method that cannot ask (a list, `completion/complete`).
    fn plain(id: RequestId, method: Method) -> Parsed {
        Parsed {
            id,
            method,
            target: None,
            arguments: JsonObject::new(),
            round: 0,
            flow: None,
        }
    }
}

/// A required string param; `-32602` when it is missing or not a string.
fn string_param<'a>(params: Option<&'a JsonObject>, key: &str) -> Result<&'a str, Error> {
    params
        .and_then(|p| p.get(key))
        .and_then(Value::as_str)
        .ok_or_else(|| Error::invalid_params(format!("`{key}` must be a string")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::router::Router;
    use crate::server_info::ServerInfo;

    fn size_of_output<A, R>(_: impl Fn(A) -> R) -> usize {
        std::mem::size_of::<R>()
    }

    /// The engine's future for one request (what stdio holds per request in flight, and what
    /// the HTTP exchange polls) stays as small as design §23 left it: `handle` and `method` are
    /// routed before their futures are made, and rare arms are boxed. A change that grows it
    /// fails here; CONTRIBUTING ("The request path") says how to keep it.
    #[test]
    fn the_engine_s_request_future_stays_small() {
        const BOUND: usize = 1_464;
        let engine = Engine::new(Router::new(ServerInfo::new("t", "1")));
        let conn = Conn {
            out: Outbound::Closed,
            principal: None,
            cancel: CancellationToken::new(),
            step_up: None,
        };
        let size =
            size_of_output(|(req, route): (Request, Route)| engine.handle(req, route, &conn));
        assert!(
            size <= BOUND,
            "Engine::handle's future is {size} bytes, over its bound of {BOUND}: keep the \
             request path free of `async fn`s that hold their arguments, and box rare arms \
             (CONTRIBUTING, \"The request path\")"
        );
    }
}
