//! [`McpService`]: the MCP endpoint as a `tower::Service`, and era selection per POST.

use super::body::{self, McpBody};
use super::config::HttpConfig;
use super::guard::{self, BoxError};
use super::headers::{self, PROTOCOL_VERSION, SESSION_ID};
use super::session::Sessions;
use super::{legacy, modern};
use crate::cx::Principal;
use crate::handler::Handler;
use crate::protocol::{Error, Inbound, RequestMeta};
use crate::server::Server;
use http::{HeaderMap, Method, Request, Response, StatusCode};
use http_body::Body;
use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// The MCP endpoint for both protocol revisions, as a [`tower::Service`] (build it with
/// [`Server::into_http`]). It answers POST, GET and DELETE on whatever path it is mounted at:
///
/// ```no_run
/// # use rondo_mcp::prelude::*;
/// # struct H;
/// # impl Handler for H { fn info(&self) -> ServerInfo { ServerInfo::new("h", "1").with_tools() } }
/// use rondo_mcp::http::HttpConfig;
/// let mcp = Server::new(H).into_http(HttpConfig::default());
/// // axum: Router::new().route_service("/mcp", mcp)
/// # let _ = mcp;
/// ```
///
/// Clones share sessions and settings. An authentication layer in front may put a
/// [`Principal`] into the request's extensions; handlers see it as [`Cx::principal`](crate::Cx::principal).
///
/// [`tower::Service`]: tower_service::Service
pub struct McpService<H> {
    pub(crate) server: Server<H>,
    pub(crate) shared: Arc<Shared>,
}

/// What every clone of a service shares.
#[derive(Debug)]
pub(crate) struct Shared {
    pub config: HttpConfig,
    pub sessions: Sessions,
    pub limit: usize,
}

impl<H> Clone for McpService<H> {
    fn clone(&self) -> Self {
        McpService {
            server: self.server.clone(),
            shared: self.shared.clone(),
        }
    }
}

impl<H> fmt::Debug for McpService<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpService")
            .field("config", &self.shared.config)
            .finish_non_exhaustive()
    }
}

impl<H: Handler> Server<H> {
    /// This server's Streamable HTTP endpoint (both revisions on one path).
    pub fn into_http(self, config: HttpConfig) -> McpService<H> {
        let limit = config
            .max_body_bytes
            .unwrap_or(self.config.max_message_bytes);
        McpService {
            server: self,
            shared: Arc::new(Shared {
                config,
                sessions: Sessions::default(),
                limit,
            }),
        }
    }
}

/// Which path serves a POST (2026-07-28 § Versioning, Backward Compatibility: "A dual-era
/// server selects its behavior from how the client opens").
#[derive(Debug, PartialEq)]
enum Era {
    /// Modern `_meta`, a non-legacy version header, or no legacy signal at all.
    Modern,
    /// `initialize` without modern metadata: a new 2025-11-25 session.
    Initialize,
    /// A message of this 2025-11-25 session.
    Session(String),
    /// A legacy version header without a session: 400.
    NoSession,
}

/// `YYYY-MM-DD` up to 2025-11-25: a version of the `initialize` era.
fn legacy_era(version: &str) -> bool {
    let b = version.as_bytes();
    let date = b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
    date && version <= "2025-11-25"
}

fn era(headers: &HeaderMap, msg: &Inbound) -> Era {
    let req = match msg {
        Inbound::Request(r) => Some(r),
        _ => None,
    };
    if req.is_some_and(|r| RequestMeta::version_of(r.params.as_ref()).is_some()) {
        return Era::Modern;
    }
    let version = headers::single(headers, PROTOCOL_VERSION, "MCP-Protocol-Version");
    let legacy_header = match version {
        Ok(None) => None,
        Ok(Some(v)) => Some(legacy_era(v)),
        Err(_) => Some(false),
    };
    if legacy_header == Some(false) {
        return Era::Modern;
    }
    if req.is_some_and(|r| r.method == "initialize") {
        return Era::Initialize;
    }
    match headers::single(headers, SESSION_ID, "Mcp-Session-Id") {
        Ok(Some(id)) => Era::Session(id.to_owned()),
        _ if legacy_header == Some(true) => Era::NoSession,
        _ => Era::Modern,
    }
}

impl<H: Handler> McpService<H> {
    /// The settings.
    pub fn config(&self) -> &HttpConfig {
        &self.shared.config
    }

    /// Begins a graceful shutdown: every `subscriptions/listen` stream ends with its
    /// completion result, 2025-11-25 GET streams close and pending server-to-client requests
    /// fail (tools take their fallbacks). Requests in flight run on. [`serve`](super::serve)
    /// calls this when its shutdown future resolves.
    pub fn shutdown(&self) {
        self.server.hub.shutdown();
        self.shared.sessions.end_all();
    }

    /// Serves one HTTP request.
    pub async fn handle<B>(&self, req: Request<B>) -> Response<McpBody>
    where
        B: Body + Send,
        B::Data: Send,
        B::Error: Into<BoxError>,
    {
        let (parts, body) = req.into_parts();
        if let Err(reason) = guard::check_origin(&self.shared.config, &parts.uri, &parts.headers) {
            return body::refuse(StatusCode::FORBIDDEN, reason);
        }
        let who = parts.extensions.get::<Principal>();
        match parts.method {
            Method::GET => legacy::get(self, &parts.headers, who),
            Method::DELETE => legacy::delete(self, &parts.headers, who),
            Method::POST => self.post(parts, body).await,
            _ => body::method_not_allowed(),
        }
    }

    async fn post<B>(&self, parts: http::request::Parts, body: B) -> Response<McpBody>
    where
        B: Body + Send,
        B::Data: Send,
        B::Error: Into<BoxError>,
    {
        let headers = &parts.headers;
        let bytes = match guard::read_body(headers, body, self.shared.limit).await {
            Ok(b) => b,
            Err((status, reason)) => return body::refuse(status, reason),
        };
        let msg = match Inbound::parse(&bytes) {
            Ok(m) => m,
            Err(rej) => return body::error(StatusCode::BAD_REQUEST, rej.id.as_ref(), &rej.error),
        };
        let principal = parts.extensions.get::<Principal>().cloned();
        let accepts_json = guard::accepts_json(headers);
        match era(headers, &msg) {
            Era::Modern => modern::post(self, headers, msg, principal, accepts_json).await,
            Era::Initialize => match &msg {
                Inbound::Request(req) => {
                    legacy::initialize(self, req, principal.as_ref(), accepts_json)
                }
                _ => body::refuse(StatusCode::BAD_REQUEST, "initialize must be a request"),
            },
            Era::Session(sid) => {
                legacy::post(self, &sid, headers, msg, principal, accepts_json).await
            }
            Era::NoSession => {
                let id = match &msg {
                    Inbound::Request(r) => Some(&r.id),
                    _ => None,
                };
                let e = Error::invalid_request("Mcp-Session-Id header is required");
                body::error(StatusCode::BAD_REQUEST, id, &e)
            }
        }
    }
}

impl<H, B> tower_service::Service<Request<B>> for McpService<H>
where
    H: Handler,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<BoxError>,
{
    type Response = Response<McpBody>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<McpBody>, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<B>) -> Self::Future {
        let svc = self.clone();
        Box::pin(async move { Ok(svc.handle(req).await) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn msg(v: serde_json::Value) -> Inbound {
        Inbound::from_value(v).unwrap()
    }

    fn hdrs(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn eras() {
        let init = msg(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                              "params": {"protocolVersion": "2025-11-25"}}));
        let modern_init = msg(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}));
        let list = msg(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
        let v25 = [("mcp-protocol-version", "2025-11-25")];
        assert_eq!(era(&hdrs(&[]), &init), Era::Initialize);
        assert_eq!(era(&hdrs(&v25), &init), Era::Initialize);
        assert_eq!(era(&hdrs(&v25), &modern_init), Era::Modern);
        assert_eq!(
            era(&hdrs(&[("mcp-protocol-version", "v999.0.0")]), &init),
            Era::Modern
        );
        assert_eq!(
            era(&hdrs(&[("mcp-session-id", "abc")]), &list),
            Era::Session("abc".into())
        );
        assert_eq!(era(&hdrs(&v25), &list), Era::NoSession);
        assert_eq!(era(&hdrs(&[]), &list), Era::Modern);
        assert!(legacy_era("2025-03-26") && !legacy_era("2026-07-28") && !legacy_era("v1"));
    }
}
