//! [`HttpConfig`]: what the HTTP transport accepts and how long it keeps things.

use super::authority::AllowedHost;
use std::time::Duration;

/// Settings of the HTTP transports: Streamable HTTP, and the HTTP+SSE transport of
/// 2024-11-05 ([`sse_paths`](Self::sse_paths)).
///
/// The defaults suit a server on the local machine: only `localhost`, `127.0.0.1` and `[::1]`
/// (any port) are accepted as `Host`, only origins on those hosts as `Origin` (DNS-rebinding
/// protection, 2026-07-28 § Streamable HTTP, Security), request bodies up to the server's
/// [`max_message_bytes`](crate::Server::max_message_bytes).
#[derive(Debug, Clone)]
pub struct HttpConfig {
    pub(crate) hosts: Vec<AllowedHost>,
    pub(crate) any_host: bool,
    pub(crate) origins: Vec<String>,
    pub(crate) any_origin: bool,
    pub(crate) max_body_bytes: Option<usize>,
    pub(crate) body_timeout: Duration,
    pub(crate) keep_alive: Duration,
    pub(crate) session_idle: Duration,
    pub(crate) max_sessions: usize,
    pub(crate) max_sessions_per_client: usize,
    pub(crate) max_connections: usize,
    pub(crate) drain: Duration,
    pub(crate) path: String,
    pub(crate) sse: Option<SsePaths>,
    pub(crate) sse_stall: Duration,
    #[cfg(feature = "auth")]
    pub(crate) protection: Option<crate::auth::ResourceServer>,
}

/// Where the HTTP+SSE transport of 2024-11-05 is served: the stream a client opens with GET,
/// and the path its messages are POSTed to (announced in the stream's `endpoint` event).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SsePaths {
    pub stream: String,
    pub messages: String,
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            hosts: ["localhost", "127.0.0.1", "[::1]"]
                .map(AllowedHost::new)
                .to_vec(),
            any_host: false,
            origins: Vec::new(),
            any_origin: false,
            max_body_bytes: None,
            body_timeout: Duration::from_secs(30),
            keep_alive: Duration::from_secs(15),
            session_idle: Duration::from_secs(30 * 60),
            max_sessions: 10_000,
            max_sessions_per_client: 100,
            max_connections: 1024,
            drain: Duration::from_secs(10),
            path: "/mcp".into(),
            sse: Some(SsePaths {
                stream: "/sse".into(),
                messages: "/messages".into(),
            }),
            sse_stall: Duration::from_secs(30),
            #[cfg(feature = "auth")]
            protection: None,
        }
    }
}

impl HttpConfig {
    /// The defaults (see the type's docs).
    pub fn new() -> Self {
        Self::default()
    }
    /// Also accepts this `Host` (a name or address, `[v6]` in brackets; without a port it
    /// matches any port). Origins on this host are accepted too.
    pub fn allow_host(mut self, host: impl Into<String>) -> Self {
        // `AllowedHost` lowercases the host it splits.
        self.hosts.push(AllowedHost::new(&host.into()));
        self
    }
    /// Accepts any `Host` (behind a reverse proxy that already checks it). `Origin` is still
    /// checked.
    pub fn allow_any_host(mut self) -> Self {
        self.any_host = true;
        self
    }
    /// Also accepts this exact `Origin` (`scheme://host[:port]`).
    pub fn allow_origin(mut self, origin: impl Into<String>) -> Self {
        self.origins.push(origin.into().to_ascii_lowercase());
        self
    }
    /// Accepts any `Origin`. Only for servers that authenticate every request.
    pub fn allow_any_origin(mut self) -> Self {
        self.any_origin = true;
        self
    }
    /// The largest request body, in bytes (default: the server's `max_message_bytes`);
    /// larger ones get `413`.
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = Some(bytes);
        self
    }
    /// How long a request body may take to arrive in full (default 30 s); a slower one gets
    /// `408` and its connection closes. With hyper's 30 s limit on the request head, no client
    /// holds a connection without sending what it promised.
    pub fn body_timeout(mut self, timeout: Duration) -> Self {
        self.body_timeout = timeout;
        self
    }
    /// How often a quiet SSE stream gets a `:` comment (default 15 s).
    pub fn keep_alive(mut self, every: Duration) -> Self {
        self.keep_alive = every;
        self
    }
    /// How long an unused 2025-11-25 session lives (default 30 min).
    pub fn session_idle_timeout(mut self, idle: Duration) -> Self {
        self.session_idle = idle;
        self
    }
    /// The most live 2025-11-25 sessions (default 10 000). At the limit a new `initialize`
    /// ends the least recently used session that is quiet (no request in flight, no GET
    /// stream); only when every session is busy is it refused, with `503`.
    pub fn max_sessions(mut self, max: usize) -> Self {
        self.max_sessions = max.max(1);
        self
    }
    /// The most live 2025-11-25 sessions of one client (default 100): its principal when the
    /// request carries one, else its IP address (which [`serve`](super::serve) knows from the
    /// connection; a service mounted elsewhere reads it from a
    /// [`SocketAddr`](std::net::SocketAddr) request extension, or counts every anonymous client
    /// together). At the limit the
    /// client's least recently used quiet session ends for the new one; when all of them are
    /// busy the `initialize` is refused with `429`.
    pub fn max_sessions_per_client(mut self, max: usize) -> Self {
        self.max_sessions_per_client = max.max(1);
        self
    }
    /// The most connections [`serve`](super::serve) holds open at once (default 1024). At the
    /// limit it stops accepting until one closes; new clients wait in the listen backlog. An
    /// idle keep-alive connection is closed after 30 s, so the wait is bounded. (A service
    /// mounted in another server, such as axum, is bounded by that server.)
    pub fn max_connections(mut self, max: usize) -> Self {
        self.max_connections = max.max(1);
        self
    }
    /// How long [`serve`](super::serve) lets in-flight requests finish after shutdown began
    /// (default 10 s).
    pub fn drain_timeout(mut self, drain: Duration) -> Self {
        self.drain = drain;
        self
    }
    /// The endpoint path [`serve`](super::serve) answers on (default `/mcp`).
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// Serves the HTTP+SSE transport of 2024-11-05 at these paths (default `/sse` and
    /// `/messages`): a GET of `stream` opens a session's SSE stream, whose first event names
    /// `messages?session_id=…` as the URL to POST its messages to; every answer,
    /// notification and server-to-client request of the session comes as a `message` event on
    /// the stream. Clients of 2024-11-05 (the official SDKs before Streamable HTTP: Python
    /// 1.7 and older, TypeScript 1.9 and older) reach a remote server only this way, and many later hosts are still set up for it. A session
    /// negotiates whichever handshake revision its `initialize` asks for, and is served like a
    /// stdio session. Its bounds are the Streamable HTTP sessions' (`max_sessions`,
    /// `max_sessions_per_client`, `session_idle_timeout`, counted apart from them), the
    /// server's `max_in_flight` requests at once, and
    /// [`sse_stall_timeout`](Self::sse_stall_timeout).
    pub fn sse_paths(mut self, stream: impl Into<String>, messages: impl Into<String>) -> Self {
        self.sse = Some(SsePaths {
            stream: stream.into(),
            messages: messages.into(),
        });
        self
    }
    /// Does not serve the HTTP+SSE transport of 2024-11-05 (see
    /// [`sse_paths`](Self::sse_paths)); its paths then get what any other path gets.
    pub fn without_sse(mut self) -> Self {
        self.sse = None;
        self
    }
    /// How long a message may wait for an HTTP+SSE client to take it off its stream (default
    /// 30 s). A client that stops reading fills its connection and then the stream's queue
    /// (32 messages); once a message has waited this long, the session ends and its stream
    /// closes, so a client that never reads holds no more than that.
    pub fn sse_stall_timeout(mut self, timeout: Duration) -> Self {
        self.sse_stall = timeout;
        self
    }

    /// Protects the endpoint with `rs` (feature `auth`): every request must carry an access
    /// token that its verifier accepts, issued for this server, unexpired, with the scopes
    /// the request's target declares. The Protected Resource Metadata document is served
    /// at [`McpService::metadata_paths`](super::McpService::metadata_paths) without a token
    /// (and [`serve`](super::serve) routes those paths). A [`Principal`](crate::Principal) in
    /// the request's extensions is then ignored: the verified token is the only source of
    /// identity.
    #[cfg(feature = "auth")]
    pub fn protect(mut self, rs: crate::auth::ResourceServer) -> Self {
        self.protection = Some(rs);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::{AllowedHost, HttpConfig};

    /// A config's `Debug` names each allowed host as it is matched, not its parts.
    #[test]
    fn an_allowed_host_shows_as_it_is_matched() {
        let shown = |text: &str| format!("{:?}", AllowedHost::new(text));
        assert_eq!(shown("localhost"), r#""localhost""#);
        assert_eq!(shown("Books.Example:8443"), r#""books.example:8443""#);
        assert_eq!(shown("[::1]"), r#""[::1]""#);
        assert_eq!(shown("a b"), "<no host[:port]: matches nothing>");
        let config = format!("{:?}", HttpConfig::default().allow_host("books.example"));
        assert!(
            config.contains(r#"hosts: ["localhost", "127.0.0.1", "[::1]", "books.example"]"#),
            "{config}"
        );
    }
}
