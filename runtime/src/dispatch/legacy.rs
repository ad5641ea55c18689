//! Sessions of the handshake revisions (2024-11-05 to 2025-11-25): `initialize`, which opens one, and the methods only a session has
//! (`ping`, `logging/setLevel`, `resources/subscribe`/`unsubscribe`) in front of the shared ones.

use super::{Answered, ClientFacts, Conn, Engine, string_param};
use crate::handler::Handler;
use crate::policy::ClientSide;
use crate::protocol::{
    self, ClientCapabilities, Error, Implementation, InitializeResult, JsonObject, LoggingLevel,
    Method, Request, Revision, Shape as _, Written, echo,
};
use crate::session::LegacySession;
use futures_util::future::Either;
use serde::Deserialize as _;
use serde_json::Value;
use std::future::{Future, ready};
use std::sync::Arc;

impl<H: Handler> Engine<H> {
    /// Answers an `initialize` and returns the session it opens.
    pub(crate) fn initialize(&self, req: &Request) -> Result<(Written, LegacySession), Error> {
        let params = req
            .params
            .other()
            .ok_or_else(|| Error::invalid_params("`initialize` needs params"))?;
        let requested = params
            .get("protocolVersion")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                Error::invalid_params("`initialize` needs a string `protocolVersion`")
            })?;
        // An unknown version is answered with the newest one the server speaks (2025-11-25
        // § Version Negotiation); the client decides whether it can go on.
        let revision = Revision::parse(requested)
            .filter(|r| !r.is_modern())
            .unwrap_or(Revision::NEWEST_HANDSHAKE);
        let caps: ClientCapabilities = match params.get("capabilities") {
            None => ClientCapabilities::default(),
            Some(v) => ClientCapabilities::deserialize(v).map_err(|e| {
                Error::invalid_params(format!("Invalid `capabilities`: {}", echo(e)))
            })?,
        };
        let caps = caps.read_at(revision);
        let client_info = params
            .get("clientInfo")
            .and_then(|v| Implementation::deserialize(v).ok());
        let info = &self.config.info;
        let mut capabilities = info.capabilities.clone();
        capabilities.shape(revision);
        let mut server_info = info.implementation.clone();
        server_info.shape(revision);
        let result = InitializeResult {
            protocol_version: revision.as_str(),
            capabilities,
            server_info: &server_info,
            instructions: info.instructions.as_deref(),
        };
        let result = protocol::write(&result)?;
        tracing::info!(version = revision.as_str(), client = ?client_info, "session opened");
        // The session's capabilities are fixed at `initialize`: the policy narrows them once,
        // and the rules that match are logged here, in the request that opened the session.
        let client = ClientSide::narrowed(caps, client_info, &self.config.client_policy);
        let session = LegacySession::new(revision, Arc::new(client));
        Ok((result, session))
    }

    /// Serves a request of a 2025-11-25 session: the session-only methods at once, the
    /// shared ones by [`Engine::method`]'s future (not an `async fn`, for the reason `method`
    /// is not).
    pub(super) fn legacy<'a>(
        &'a self,
        req: Request,
        session: &LegacySession,
        conn: &'a Conn,
    ) -> impl Future<Output = Answered> + Send + use<'a, H> {
        let params = req.params.other();
        let caps = &self.config.info.capabilities;
        let subscribe = caps.resources.as_ref().and_then(|r| r.subscribe) == Some(true);
        let now = match &req.method {
            Method::Ping => Ok(Some(empty())),
            Method::SetLogLevel if caps.logging.is_some() => log_level(params).map(|level| {
                session.set_log_level(level);
                Some(empty())
            }),
            m @ (Method::ResourcesSubscribe | Method::ResourcesUnsubscribe) if subscribe => {
                string_param(params, "uri").and_then(|uri| {
                    let max = self.config.max_listen_uris;
                    session.subscribe(uri, *m == Method::ResourcesSubscribe, max)?;
                    Ok(Some(empty()))
                })
            }
            _ => {
                let facts = ClientFacts::legacy(session, req.params.meta.as_ref());
                return Either::Right(self.method(req, conn, facts));
            }
        };
        Either::Left(ready(now))
    }
}

/// The `level` of `logging/setLevel`.
fn log_level(params: Option<&JsonObject>) -> Result<LoggingLevel, Error> {
    params
        .and_then(|p| p.get("level"))
        .and_then(|l| LoggingLevel::deserialize(l).ok())
        .ok_or_else(|| Error::invalid_params("`level` must be a logging level"))
}

/// The empty result of `ping` and the session-only methods.
fn empty() -> Written {
    // An empty object always serialises.
    protocol::write(&JsonObject::new()).unwrap_or_else(|_| unreachable!())
}
