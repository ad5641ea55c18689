//! Routing one request to the handler, for either revision, and shaping its answer.
//!
//! Era selection (MCP 2026-07-28 § Versioning, Backward Compatibility): a request carrying the
//! modern `_meta` protocol version is served statelessly, whatever its method (so an
//! `initialize` with modern metadata is an unknown method); an `initialize` without it opens a
//! 2025-11-25 session; any other request is served by the session of its connection when
//! there is one, and otherwise as a modern request missing its `_meta` (`-32602`).

mod methods;
mod rounds;

#[cfg(feature = "http")]
use rounds::{Driven, drive, settle};

use crate::backchannel::{BackChannel, Outbound};
use crate::cx::{AskState, Cx, Principal};
use crate::handler::Handler;
use crate::protocol::{
    self, ClientCapabilities, Error, Implementation, JsonObject, LEGACY_VERSIONS, LoggingLevel,
    MODERN_VERSIONS, Request, RequestMeta, Revision, meta,
};
use crate::server::Server;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

/// A 2025-11-25 session: one stdio process after `initialize`, or one `Mcp-Session-Id`.
#[derive(Debug)]
pub(crate) struct LegacySession {
    /// The negotiated version.
    pub protocol_version: String,
    /// What the client declared at `initialize`.
    pub client_capabilities: ClientCapabilities,
    /// The client's name and version.
    pub client_info: Option<Implementation>,
    /// `logging/setLevel`; no log notifications until it is set.
    pub log_level: Mutex<Option<LoggingLevel>>,
    /// Server-to-client requests of this session.
    pub back: Arc<BackChannel>,
    /// `resources/subscribe`d URIs.
    pub subscriptions: Mutex<BTreeSet<String>>,
}

/// What a transport knows about the connection a request arrived on.
#[derive(Debug, Clone)]
pub(crate) struct Conn {
    /// Where this request's notifications (and back-channel requests) go.
    pub out: Outbound,
    /// The 2025-11-25 session, if the connection has one.
    pub session: Option<Arc<LegacySession>>,
    /// Who is calling.
    pub principal: Option<Principal>,
    /// Cancelled when the client cancels the request or drops its stream.
    pub cancel: CancellationToken,
}

/// How a transport should treat a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Route {
    /// Stateless 2026-07-28 processing.
    Modern,
    /// Open a 2025-11-25 session.
    Initialize,
    /// Serve in the connection's 2025-11-25 session.
    Legacy,
}

/// Chooses the era of a request (see the module docs).
pub(crate) fn route(req: &Request, has_session: bool) -> Route {
    if RequestMeta::version_of(req.params.as_ref()).is_some() {
        Route::Modern
    } else if req.method == "initialize" {
        Route::Initialize
    } else if has_session {
        Route::Legacy
    } else {
        Route::Modern
    }
}

/// The per-request facts that do not depend on the method.
pub(crate) struct Origin {
    pub(crate) revision: Revision,
    caps: ClientCapabilities,
    client_info: Option<Implementation>,
    log_level: Option<LoggingLevel>,
    progress_token: Option<Value>,
    back: Option<Arc<BackChannel>>,
}

/// The answer to one request before it becomes a JSON-RPC message.
pub(crate) type Answered = Result<Option<Value>, Error>;

impl<H: Handler> Server<H> {
    /// Serves one request; `None` when it was cancelled (nothing may be sent for it then).
    pub(crate) async fn handle(&self, req: Request, conn: &Conn) -> Option<Value> {
        let span = tracing::info_span!(
            "mcp.request",
            method = %req.method,
            id = %req.id,
            revision = tracing::field::Empty,
            name = tracing::field::Empty,
            round = tracing::field::Empty,
        );
        async {
            let answered = match (route(&req, conn.session.is_some()), &conn.session) {
                (Route::Legacy, Some(session)) => self.legacy(&req, conn, session).await,
                _ => self.modern(&req, conn).await,
            };
            match answered {
                Ok(Some(result)) => Some(protocol::response(&req.id, result)),
                Ok(None) => None,
                Err(e) => {
                    tracing::debug!(code = e.code, message = %e.message, "request failed");
                    Some(protocol::error_response(Some(&req.id), &e))
                }
            }
        }
        .instrument(span)
        .await
    }

    /// Answers an `initialize` and returns the session it opens.
    pub(crate) fn initialize(&self, req: &Request) -> Result<(Value, LegacySession), Error> {
        let params = req
            .params
            .as_ref()
            .ok_or_else(|| Error::invalid_params("`initialize` needs params"))?;
        let requested = params
            .get("protocolVersion")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                Error::invalid_params("`initialize` needs a string `protocolVersion`")
            })?;
        let version = if LEGACY_VERSIONS.contains(&requested) {
            requested
        } else {
            LEGACY_VERSIONS[0]
        };
        let caps: ClientCapabilities = match params.get("capabilities") {
            None => ClientCapabilities::default(),
            Some(v) => serde_json::from_value(v.clone())
                .map_err(|e| Error::invalid_params(format!("Invalid `capabilities`: {e}")))?,
        };
        let client_info = params
            .get("clientInfo")
            .and_then(|v| serde_json::from_value(v.clone()).ok());
        let info = &self.config.info;
        let mut capabilities =
            serde_json::to_value(&info.capabilities).unwrap_or_else(|_| json!({}));
        if let Some(c) = capabilities.as_object_mut() {
            c.remove("extensions");
        }
        let mut result = json!({
            "protocolVersion": version,
            "capabilities": capabilities,
            "serverInfo": info.implementation,
        });
        if let Some(text) = &info.instructions {
            result["instructions"] = json!(text);
        }
        tracing::info!(version, client = ?client_info, "2025-11-25 session opened");
        let session = LegacySession {
            protocol_version: version.to_owned(),
            client_capabilities: caps,
            client_info,
            log_level: Mutex::new(None),
            back: Arc::new(BackChannel::default()),
            subscriptions: Mutex::new(BTreeSet::new()),
        };
        Ok((result, session))
    }

    /// The tools listed to the caller of a 2026-07-28 request; the HTTP transport reads their
    /// `x-mcp-header` annotations to check `Mcp-Param-*` headers.
    #[cfg(feature = "http")]
    pub(crate) async fn tools_for(
        &self,
        req: &Request,
        conn: &Conn,
    ) -> Result<Vec<protocol::Tool>, Error> {
        let meta = RequestMeta::parse(req.params.as_ref())?;
        let origin = Origin {
            revision: Revision::V2026_07_28,
            caps: meta.client_capabilities,
            client_info: meta.client_info,
            log_level: None,
            progress_token: None,
            back: None,
        };
        let cx = self.cx(req, conn, origin, None, AskState::default(), 0);
        match drive(&cx, self.handler.list_tools(&cx)).await {
            Driven::Done(r) => r,
            other => settle(other).map(|_| Vec::new()),
        }
    }

    async fn modern(&self, req: &Request, conn: &Conn) -> Answered {
        let meta = RequestMeta::parse(req.params.as_ref())?;
        if !MODERN_VERSIONS.contains(&meta.protocol_version.as_str()) {
            return Err(Error::unsupported_version(
                MODERN_VERSIONS,
                &meta.protocol_version,
            ));
        }
        tracing::Span::current().record("revision", Revision::V2026_07_28.as_str());
        let origin = Origin {
            revision: Revision::V2026_07_28,
            caps: meta.client_capabilities,
            client_info: meta.client_info,
            log_level: meta.log_level,
            progress_token: meta.progress_token,
            back: None,
        };
        if req.method == "server/discover" {
            let info = &self.config.info;
            let mut r =
                json!({ "supportedVersions": MODERN_VERSIONS, "capabilities": info.capabilities });
            if let Some(text) = &info.instructions {
                r["instructions"] = json!(text);
            }
            return Ok(Some(self.complete(Revision::V2026_07_28, r, true)));
        }
        if req.method == "subscriptions/listen" {
            return self.listen(req, conn).await;
        }
        self.method(req, conn, origin).await
    }

    async fn legacy(&self, req: &Request, conn: &Conn, session: &LegacySession) -> Answered {
        tracing::Span::current().record("revision", session.protocol_version.as_str());
        let params = req.params.as_ref();
        match req.method.as_str() {
            "ping" => return Ok(Some(json!({}))),
            "logging/setLevel" if self.config.info.capabilities.logging.is_some() => {
                let level = params
                    .and_then(|p| p.get("level"))
                    .and_then(|l| serde_json::from_value::<LoggingLevel>(l.clone()).ok())
                    .ok_or_else(|| Error::invalid_params("`level` must be a logging level"))?;
                *session.log_level.lock().unwrap_or_else(|p| p.into_inner()) = Some(level);
                return Ok(Some(json!({})));
            }
            m @ ("resources/subscribe" | "resources/unsubscribe")
                if self
                    .config
                    .info
                    .capabilities
                    .resources
                    .as_ref()
                    .and_then(|r| r.subscribe)
                    == Some(true) =>
            {
                let uri = string_param(params, "uri")?;
                let mut subs = session
                    .subscriptions
                    .lock()
                    .unwrap_or_else(|p| p.into_inner());
                if m == "resources/subscribe" {
                    subs.insert(uri.to_owned());
                } else {
                    subs.remove(uri);
                }
                return Ok(Some(json!({})));
            }
            _ => {}
        }
        let origin = Origin {
            revision: Revision::V2025_11_25,
            caps: session.client_capabilities.clone(),
            client_info: session.client_info.clone(),
            log_level: *session.log_level.lock().unwrap_or_else(|p| p.into_inner()),
            progress_token: protocol::progress_token(params),
            back: Some(session.back.clone()),
        };
        self.method(req, conn, origin).await
    }

    /// Adds the revision's envelope to a complete result: `resultType`, `_meta.serverInfo` and,
    /// for cacheable methods, `ttlMs`/`cacheScope` (2026-07-28 only).
    pub(crate) fn complete(&self, rev: Revision, mut v: Value, cacheable: bool) -> Value {
        if !rev.is_modern() {
            return v;
        }
        let info = &self.config.info;
        if let Some(obj) = v.as_object_mut() {
            obj.insert("resultType".into(), json!("complete"));
            if cacheable {
                obj.insert("ttlMs".into(), json!(info.cache.ttl_ms));
                obj.insert("cacheScope".into(), json!(info.cache.scope.as_str()));
            }
            server_info_meta(obj, &info.implementation);
        }
        v
    }

    pub(crate) fn cx(
        &self,
        req: &Request,
        conn: &Conn,
        o: Origin,
        target: Option<&str>,
        ask: AskState,
        round: u32,
    ) -> Cx {
        if let Some(t) = target {
            tracing::Span::current().record("name", t);
        }
        Cx {
            revision: o.revision,
            method: req.method.clone(),
            target: target.map(str::to_owned),
            request_id: req.id.clone(),
            round,
            client_capabilities: o.caps,
            client_info: o.client_info,
            log_level: o.log_level,
            logging_enabled: self.config.info.capabilities.logging.is_some(),
            progress_token: o.progress_token,
            principal: conn.principal.clone(),
            cancel: conn.cancel.clone(),
            out: conn.out.clone(),
            back: o.back,
            config: self.config.clone(),
            notifier: self.hub.clone(),
            ask: Mutex::new(ask),
        }
    }
}

pub(crate) fn server_info_meta(obj: &mut JsonObject, info: &Implementation) {
    let meta = obj.entry("_meta").or_insert_with(|| json!({}));
    if let Some(m) = meta.as_object_mut() {
        m.entry(meta::SERVER_INFO).or_insert_with(|| json!(info));
    }
}

pub(crate) fn string_param<'a>(
    params: Option<&'a JsonObject>,
    key: &str,
) -> Result<&'a str, Error> {
    params
        .and_then(|p| p.get(key))
        .and_then(Value::as_str)
        .ok_or_else(|| Error::invalid_params(format!("`{key}` must be a string")))
}

pub(crate) fn object_param(params: &JsonObject, key: &str) -> Result<JsonObject, Error> {
    match params.get(key) {
        None | Some(Value::Null) => Ok(JsonObject::new()),
        Some(Value::Object(m)) => Ok(m.clone()),
        Some(_) => Err(Error::invalid_params(format!("`{key}` must be an object"))),
    }
}
