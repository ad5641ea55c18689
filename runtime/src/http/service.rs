//! [`McpService`]: the MCP endpoint as a `tower::Service`, and the routing of each request to
//! the path of its era.

use super::body::{self, McpBody};
use super::config::HttpConfig;
use super::endpoint::Endpoint;
use super::exchange::{self, Served};
use super::guard::{self, BoxError};
use super::headers::{self, PROTOCOL_VERSION, SESSION_ID};
use super::{legacy, modern, sse};
use crate::cx::Principal;
use crate::dispatch::Engine;
use crate::era::{self, Era, Signals, VersionHeader};
use crate::handler::Handler;
use crate::protocol::{self, Error, Inbound};
use futures_util::FutureExt as _;
use http::{HeaderMap, Method, Request, Response, StatusCode};
use http_body::Body;
use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio_util::sync::CancellationToken;

/// The MCP endpoint for both protocol eras, as a [`tower::Service`] (build it with
/// [`Server::into_http`](crate::Server::into_http)). It answers POST, GET and DELETE on
/// whatever path it is mounted at, but for the two paths of the HTTP+SSE transport
/// ([`McpService::sse_paths`]):
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
/// Clones share sessions and settings. A protected endpoint ([`HttpConfig::protect`], feature
/// `auth`) verifies each request's bearer token itself; otherwise an authentication layer in
/// front may put a [`Principal`] into the request's extensions. Handlers see either as
/// [`Cx::principal`](crate::Cx::principal).
///
/// [`tower::Service`]: tower_service::Service
pub struct McpService<H> {
    endpoint: Arc<Endpoint<H>>,
}

impl<H> Clone for McpService<H> {
    fn clone(&self) -> Self {
        McpService {
            endpoint: self.endpoint.clone(),
        }
    }
}

impl<H> fmt::Debug for McpService<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpService")
            .field("config", &self.endpoint.config)
            .finish_non_exhaustive()
    }
}

impl<H: Handler> McpService<H> {
    /// The endpoint serving `engine` with `config`.
    pub(crate) fn new(engine: Engine<H>, config: HttpConfig) -> Self {
        McpService {
            endpoint: Arc::new(Endpoint::new(engine, config)),
        }
    }

    /// The settings.
    pub fn config(&self) -> &HttpConfig {
        &self.endpoint.config
    }

    /// Begins a graceful shutdown: every `subscriptions/listen` stream ends with its
    /// completion result, 2025-11-25 GET streams close and pending server-to-client requests
    /// fail (tools take their fallbacks). Requests in flight run on; an HTTP+SSE stream closes
    /// once its requests in flight are answered, and no new one opens. [`serve`](super::serve)
    /// calls this when its shutdown future resolves.
    pub fn shutdown(&self) {
        self.endpoint.engine.hub.shutdown();
        self.endpoint.sessions.end_all();
        self.endpoint.sse.drain();
    }

    /// The paths of the HTTP+SSE transport of 2024-11-05 (the stream's, then the messages'),
    /// when it is served ([`HttpConfig::sse_paths`]). [`serve`](super::serve) routes them;
    /// mounted in another router, route both to a clone of this service:
    ///
    /// ```
    /// # use rondo_mcp::prelude::*;
    /// # struct H;
    /// # impl Handler for H { fn info(&self) -> ServerInfo { ServerInfo::new("h", "1").with_tools() } }
    /// use rondo_mcp::http::HttpConfig;
    /// let mcp = Server::new(H).into_http(HttpConfig::default());
    /// assert_eq!(mcp.sse_paths(), Some(["/sse", "/messages"]));
    /// // axum: let mut app = Router::new().route_service("/mcp", mcp.clone());
    /// //       for p in mcp.sse_paths().into_iter().flatten() { app = app.route_service(p, mcp.clone()); }
    /// ```
    pub fn sse_paths(&self) -> Option<[&str; 2]> {
        let p = self.endpoint.config.sse.as_ref()?;
        Some([p.stream.as_str(), p.messages.as_str()])
    }

    /// Serves one HTTP request. Its [`SocketAddr`] extension, when a server in front put one
    /// there, is the client's address (sessions are counted per client by it). The future owns
    /// a clone of the service, so it borrows nothing.
    pub fn handle<B>(&self, req: Request<B>) -> impl Future<Output = Response<McpBody>> + use<H, B>
    where
        B: Body + Send,
        B::Data: Send,
        B::Error: Into<BoxError>,
    {
        self.handle_from(req, None, None)
    }

    /// [`McpService::handle`] for a request from `peer`, when the server that read it knows
    /// the client's address: given here, it is not put into the request's extensions (a map
    /// allocated per request) to be read back out.
    ///
    /// Not an `async fn`: a future holds its arguments for as long as it lives, beside
    /// everything it awaits, so the request would be held twice (whole, and as the parts it
    /// is split into) and copied with the future at every move. Split first, the future holds
    /// the head once and the checks borrow it (design §23, "No `async fn` on the path").
    ///
    /// `close`, when the server that read the request can end its connection, is cancelled
    /// to end it: an HTTP+SSE stream does so when its client stops reading.
    pub(crate) fn handle_from<B>(
        &self,
        req: Request<B>,
        peer: Option<SocketAddr>,
        close: Option<&CancellationToken>,
    ) -> impl Future<Output = Response<McpBody>> + use<H, B>
    where
        B: Body + Send,
        B::Data: Send,
        B::Error: Into<BoxError>,
    {
        let this = self.clone();
        let (parts, body) = req.into_parts();
        // Only an HTTP+SSE stream keeps the means to end its connection.
        let close = match (&this.endpoint.config.sse, close) {
            (Some(p), Some(c)) if parts.uri.path() == p.stream => Some(c.clone()),
            _ => None,
        };
        async move {
            let ep = &*this.endpoint;
            if let Err(reason) = guard::check_host(&ep.config, &parts.uri, &parts.headers) {
                return body::refuse(StatusCode::FORBIDDEN, reason);
            }
            #[cfg(feature = "auth")]
            if let Some(p) = &ep.protection
                && p.serves(parts.uri.path())
            {
                return p.metadata(&parts.method);
            }
            if let Err(reason) = guard::check_origin_header(&ep.config, &parts.headers) {
                return body::refuse(StatusCode::FORBIDDEN, reason);
            }
            let who = match this.identify(&parts).await {
                Ok(who) => who,
                Err(refused) => return refused,
            };
            if let Some(paths) = &ep.config.sse {
                let path = parts.uri.path();
                if path == paths.stream {
                    return match parts.method {
                        Method::GET => {
                            let peer =
                                peer.or_else(|| parts.extensions.get::<SocketAddr>().copied());
                            let ip = peer.as_ref().map(SocketAddr::ip);
                            sse::open(&this.endpoint, who, ip, close)
                        }
                        _ => sse::wrong_method("GET"),
                    };
                }
                if path == paths.messages {
                    return match parts.method {
                        // Boxed: the Streamable HTTP path's future does not grow by its size.
                        Method::POST => {
                            Box::pin(sse::post(this.endpoint.clone(), parts, body, who)).await
                        }
                        _ => sse::wrong_method("POST"),
                    };
                }
            }
            match parts.method {
                Method::GET => legacy::get(ep, &parts.headers, who.as_ref()),
                Method::DELETE => legacy::delete(ep, &parts.headers, who.as_ref()),
                // A POST: one JSON-RPC message, served on the path of its era. Two steps, so
                // that what the checks hold (the body, the message) is gone before the
                // request runs (see `Served`).
                Method::POST => match this.check_post(&parts, body, who, peer).await {
                    Served::Now(answer) => answer,
                    Served::Run(exchange) => exchange::run(exchange).await,
                    Served::Batch(batch) => batch.await,
                },
                _ => body::method_not_allowed(),
            }
        }
    }

    /// Who sends the request: the principal of its verified token on a protected endpoint
    /// (or the answer refusing it, before any body byte is read), else the [`Principal`] a
    /// layer in front put into its extensions.
    async fn identify(
        &self,
        parts: &http::request::Parts,
    ) -> Result<Option<Principal>, Response<McpBody>> {
        #[cfg(feature = "auth")]
        if let Some(p) = &self.endpoint.protection {
            return p.authenticate(&parts.headers).await.map(Some);
        }
        Ok(parts.extensions.get::<Principal>().cloned())
    }

    /// The paths of the Protected Resource Metadata document (feature `auth`): the
    /// path-inserted one, then the root one when it is served; none when the endpoint is not
    /// [protected](HttpConfig::protect). [`serve`](super::serve) routes them; mounted in
    /// another router, route each to a clone of this service:
    ///
    /// ```
    /// # use rondo_mcp::auth::*;
    /// # use rondo_mcp::http::HttpConfig;
    /// # use rondo_mcp::prelude::*;
    /// # struct V;
    /// # impl TokenVerifier for V {
    /// #     fn verify<'a>(&'a self, _: &'a BearerToken) -> rondo_mcp::BoxFuture<'a, Result<AccessToken, AuthError>> {
    /// #         Box::pin(async { Err(AuthError::Invalid("no".into())) })
    /// #     }
    /// # }
    /// let rs = ResourceServer::builder("https://books.example/mcp")
    ///     .authorization_server("https://id.example")
    ///     .verifier(V)
    ///     .build()?;
    /// let router = Router::new(ServerInfo::new("books", "1.0.0"));
    /// let mcp = Server::new(router).into_http(HttpConfig::default().protect(rs));
    /// let paths = mcp.metadata_paths();
    /// assert_eq!(
    ///     paths,
    ///     ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]
    /// );
    /// // axum: let mut app = Router::new().route_service("/mcp", mcp.clone());
    /// //       for p in &paths { app = app.route_service(p, mcp.clone()); }
    /// # Ok::<(), ConfigError>(())
    /// ```
    #[cfg(feature = "auth")]
    pub fn metadata_paths(&self) -> Vec<String> {
        self.endpoint
            .protection
            .as_ref()
            .map_or_else(Vec::new, |p| p.paths().to_vec())
    }

    /// Whether [`serve`](super::serve) routes `path` to this service.
    pub(crate) fn serves(&self, path: &str) -> bool {
        self.endpoint.serves(path)
    }

    /// Reads and checks a POST: its answer, or the request to run.
    async fn check_post<B>(
        &self,
        parts: &http::request::Parts,
        body: B,
        principal: Option<Principal>,
        peer: Option<SocketAddr>,
    ) -> Served<H>
    where
        B: Body + Send,
        B::Data: Send,
        B::Error: Into<BoxError>,
    {
        let (ep, headers) = (&*self.endpoint, &parts.headers);
        let bytes = match guard::read_body(headers, body, ep.limit, ep.config.body_timeout).await {
            Ok(b) => b,
            Err(unread) => {
                if !unread.head.is_empty() {
                    legacy::answer_too_large(ep, headers, principal.as_ref(), &unread.head);
                }
                return Served::Now(body::refuse(unread.status, unread.reason));
            }
        };
        let accepts_json = guard::accepts_json(headers);
        // A batch, in a 2025-03-26 session only; anywhere else it is refused below.
        if protocol::is_batch_bytes(&bytes)
            && let Some(batch) = legacy::batch(
                &self.endpoint,
                headers,
                bytes.clone(),
                &principal,
                accepts_json,
            )
        {
            return batch;
        }
        let msg = match Inbound::parse(&bytes) {
            Ok(m) => m,
            Err(rej) => {
                let id = rej.id.as_ref();
                return Served::Now(body::error(StatusCode::BAD_REQUEST, id, &rej.error));
            }
        };
        let session = headers::single(headers, &SESSION_ID, "Mcp-Session-Id");
        match (era::select(signals(headers, &msg, &session)), session) {
            (Era::Modern, _) => modern::post(ep, headers, msg, principal, accepts_json),
            (Era::Initialize, _) => Served::Now(match &msg {
                Inbound::Request(req) => {
                    let peer = peer.or_else(|| parts.extensions.get::<SocketAddr>().copied());
                    let ip = peer.as_ref().map(SocketAddr::ip);
                    legacy::initialize(ep, req, principal.as_ref(), ip, accepts_json)
                }
                _ => body::refuse(StatusCode::BAD_REQUEST, "initialize must be a request"),
            }),
            (Era::Session, Ok(Some(sid))) => {
                legacy::post(ep, sid, headers, msg, principal, accepts_json)
            }
            (Era::Session | Era::NoSession, _) => Served::Now(no_session(&msg)),
        }
    }
}

/// What era selection needs to know of a POST: the message, the version header, and whether
/// a session is named.
fn signals<E>(headers: &HeaderMap, msg: &Inbound, session: &Result<Option<&str>, E>) -> Signals {
    let version = headers::single(headers, &PROTOCOL_VERSION, "MCP-Protocol-Version");
    Signals {
        version_header: VersionHeader::of(version),
        session: matches!(session, Ok(Some(_))),
        ..Signals::of(msg)
    }
}

/// A 2025-era message without the session it needs: 400.
fn no_session(msg: &Inbound) -> Response<McpBody> {
    let id = match msg {
        Inbound::Request(r) => Some(&r.id),
        _ => None,
    };
    let e = Error::invalid_request("Mcp-Session-Id header is required");
    body::error(StatusCode::BAD_REQUEST, id, &e)
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
        // `handle`'s future owns what it needs: boxed as it is, with no async block around it.
        Box::pin(self.handle(req).map(Ok))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prelude::*;
    use hyper::body::Incoming;

    /// The size of what `f` returns, for a future whose argument cannot be made in a test (no
    /// `Incoming` body outside hyper): the type is enough.
    fn size_of_output<A, R>(_: impl Fn(A) -> R) -> usize {
        std::mem::size_of::<R>()
    }

    /// The future hyper holds for every request in flight stays as small as design §23 left it:
    /// every byte of it is moved when the request starts and held while it runs.
    /// A change that grows it (an `async fn` keeping its arguments beside what it awaits, a
    /// rare arm not boxed) fails here; CONTRIBUTING ("The request path") says how to keep it.
    #[test]
    fn the_request_future_hyper_holds_stays_small() {
        // What the future adds to the request it is given: hyper's `Incoming` is larger when
        // a build enables more of hyper (the workspace's tests enable its client and HTTP/2),
        // and that size is hyper's, not the request path's.
        const BOUND: usize = 920;
        let router = Router::new(ServerInfo::new("t", "1"));
        let svc = Server::new(router).into_http(HttpConfig::default());
        let size = size_of_output(|req: Request<Incoming>| svc.handle_from(req, None, None));
        let request = std::mem::size_of::<Request<Incoming>>();
        let own = size - request;
        assert!(
            own <= BOUND,
            "McpService's request future is {size} bytes, {own} beside the {request}-byte \
             request, over its bound of {BOUND}: keep the request path free of `async fn`s \
             that hold their arguments, and box rare arms (CONTRIBUTING, \"The request path\")"
        );
    }
}
