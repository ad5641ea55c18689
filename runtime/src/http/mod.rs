//! Streamable HTTP for both protocol eras on one endpoint, and the HTTP+SSE transport of
//! 2024-11-05 beside it (feature `http`).
//!
//! - **2026-07-28** (stateless): every POST carries one request or notification with its
//!   `_meta`; the `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` headers
//!   must match the body (`-32020`, HTTP 400). The answer is `application/json` when the
//!   handler sends nothing before its result, otherwise a request-scoped SSE stream
//!   (progress, logs, then the response). Closing that stream cancels the request.
//!   `subscriptions/listen` keeps its stream open for change notifications. GET and DELETE
//!   answer 405.
//! - **2025-11-25, 2025-06-18 and 2025-03-26** (sessions): `initialize` mints
//!   `Mcp-Session-Id`; later POSTs name it; server-to-client requests (elicitation, sampling,
//!   roots) travel on the POST's SSE stream and the client POSTs its answers back (202); GET
//!   opens the session's standalone stream (list changes, resource updates); DELETE ends the
//!   session. A 2025-03-26 session may POST a JSON-RPC batch (`batch.rs`).
//!
//! - **HTTP+SSE** (2024-11-05, [`HttpConfig::sse_paths`], on by default at `/sse` and
//!   `/messages`): a GET of `/sse` opens a session's stream, whose first event names
//!   `/messages?session_id=…`; the client POSTs every message there (202) and hears every
//!   answer, notification and server-to-client request as a `message` event on the stream.
//!   The session negotiates any handshake revision, as on stdio.
//!
//! Every request first passes the `Host`/`Origin` check (403, DNS-rebinding protection) and
//! the body size limit (413).
//!
//! ```no_run
//! # use rondo_mcp::prelude::*;
//! # struct Hello;
//! # impl Handler for Hello { fn info(&self) -> ServerInfo { ServerInfo::new("hello", "1").with_tools() } }
//! # #[tokio::main] async fn main() -> std::io::Result<()> {
//! let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
//! # drop(stop);
//! // Resolve the shutdown future to stop accepting and drain; `http::shutdown_signal()`
//! // resolves on SIGTERM or ctrl-c.
//! let shutdown = async {
//!     let _ = stopped.await;
//! };
//! rondo_mcp::http::serve(Server::new(Hello), "127.0.0.1:8000", shutdown).await
//! # }
//! ```

#[cfg(feature = "auth")]
mod auth;
mod authority;
mod batch;
mod body;
mod config;
mod endpoint;
mod exchange;
mod flights;
pub(crate) mod guard;
pub(crate) mod headers;
mod legacy;
mod modern;
mod rewake;
mod serve;
mod service;
mod session;
mod sse;

pub use body::McpBody;
pub use config::HttpConfig;
pub use serve::{serve, serve_listener, shutdown_signal};
pub use service::McpService;
