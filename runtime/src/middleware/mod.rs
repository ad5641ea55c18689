//! Middleware: tower [`Layer`](tower::Layer)s around every message a server takes and sends
//! (design §32).
//!
//! [`Server::layer`](crate::Server::layer) wraps the server in a layer. A layer sees each
//! message as an [`McpRequest`], a typed view (which way it goes, its method, the tool, prompt
//! or resource it names, the revision, what the client declared, the principal, the request and
//! the flow it belongs to), and answers an [`McpResponse`]. It may look and pass it on (an audit
//! log), answer itself without passing it on ([`McpResponse::error`]: a rate limit, a policy),
//! time it out, or look at the answer. Dropping the request drops the layer's future:
//! cancellation reaches it.
//!
//! What passes through, at every revision and on every transport:
//!
//! - **inbound**: every request a client sends, before the server routes it (`tools/call`,
//!   the lists, `initialize`, `ping`, the extensions' methods, custom methods);
//! - **outbound**: every request the server sends a client of a handshake revision
//!   (`elicitation/create`, `sampling/createMessage`, `roots/list`), with the client's answer
//!   as its response; the notifications a request sends (progress, log messages, a URL flow's
//!   completion); and the change notifications a session or a listen stream receives (list
//!   changes, resource updates, task status).
//!
//! Client notifications (`notifications/cancelled`, `notifications/initialized`) and responses
//! are transport plumbing and pass no layer.
//!
//! The order: each call of `Server::layer` wraps every layer added before it, as axum's
//! `Router::layer` does, so the layer added last sees a message first and its answer last.
//!
//! A server without layers serves as it did before this module existed: the engine checks one
//! `Option` per request.
//!
//! ```
//! use rondo_mcp::middleware::{McpRequest, McpResponse};
//! use rondo_mcp::prelude::*;
//! use std::task::{Context, Poll};
//!
//! /// Refuses every tool whose name starts with `admin_`.
//! #[derive(Clone)]
//! struct NoAdmin<S>(S);
//!
//! impl<S> tower::Service<McpRequest> for NoAdmin<S>
//! where
//!     S: tower::Service<McpRequest, Response = McpResponse>,
//! {
//!     type Response = McpResponse;
//!     type Error = S::Error;
//!     type Future = futures_util::future::Either<
//!         std::future::Ready<Result<McpResponse, S::Error>>,
//!         S::Future,
//!     >;
//!     fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
//!         self.0.poll_ready(cx)
//!     }
//!     fn call(&mut self, req: McpRequest) -> Self::Future {
//!         use futures_util::future::Either;
//!         if req.is_tool_call() && req.name().is_some_and(|n| n.starts_with("admin_")) {
//!             let refused = McpResponse::error(Error::invalid_params("this tool is turned off"));
//!             return Either::Left(std::future::ready(Ok(refused)));
//!         }
//!         Either::Right(self.0.call(req))
//!     }
//! }
//!
//! let router = Router::new(ServerInfo::new("guarded", "1.0.0"));
//! let server = Server::new(router).layer(tower::layer::layer_fn(NoAdmin));
//! # let _ = server;
//! ```

mod request;
mod response;

pub(crate) use request::View;
pub use request::{Direction, McpRequest};
pub use response::McpResponse;

use crate::backchannel::{BackChannelError, Outbound};
use crate::protocol::Message;
use crate::sync::BoxFuture;
use futures_util::FutureExt as _;
use std::panic::AssertUnwindSafe;
use std::task::{Context, Poll};
use tower::ServiceExt as _;
use tower::util::BoxCloneSyncService;

/// The error a layer may fail with (a `tower::timeout` elapsed, a limit's error): the request
/// is then answered `-32603` with its text, or the MCP error it is.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The layers added so far, type-erased around the server's own service, [`Next`]: what the
/// next layer given to [`Server::layer`](crate::Server::layer) wraps.
pub type Stack = BoxCloneSyncService<McpRequest, McpResponse, BoxError>;

/// The service every layer wraps, innermost: it does what the message is for (serves the
/// request, sends the notification, asks the client) and answers what that came to. Layers
/// are generic over it; a user never names it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Next;

impl tower::Service<McpRequest> for Next {
    type Response = McpResponse;
    type Error = BoxError;
    type Future = BoxFuture<'static, Result<McpResponse, BoxError>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: McpRequest) -> Self::Future {
        let run = req.into_next();
        Box::pin(async move { Ok(run.await) })
    }
}

/// The stack with `layer` around it (`Server::layer`): the first layer is put around [`Next`].
pub(crate) fn push<L>(stack: Option<Stack>, layer: L) -> Stack
where
    L: tower::Layer<Stack>,
    L::Service: tower::Service<McpRequest, Response = McpResponse> + Clone + Send + Sync + 'static,
    <L::Service as tower::Service<McpRequest>>::Error: Into<BoxError>,
    <L::Service as tower::Service<McpRequest>>::Future: Send + 'static,
{
    let inner = stack.unwrap_or_else(|| BoxCloneSyncService::new(Next));
    BoxCloneSyncService::new(layer.layer(inner).map_err(Into::into))
}

/// Sends a notification through the layers (straight when there are none): whether the
/// connection took it. A notification a layer holds back counts as taken (the connection is
/// fine; the loops that forward changes end only when it is not).
pub(crate) async fn notify<F>(stack: Option<&Stack>, view: impl FnOnce() -> View, send: F) -> bool
where
    F: std::future::Future<Output = bool> + Send + 'static,
{
    let Some(stack) = stack else {
        return send.await;
    };
    let req = McpRequest::new(
        view(),
        Box::pin(async move { McpResponse::sent(send.await) }),
    );
    match run(stack, req).await.kind {
        response::Kind::Sent(sent) => sent,
        _ => true,
    }
}

/// [`notify`] of `msg` on `out`, with no clone of `out` when there are no layers.
pub(crate) async fn send(
    stack: Option<&Stack>,
    out: &Outbound,
    msg: Message,
    view: impl FnOnce() -> View,
) -> bool {
    if stack.is_none() {
        return out.send(msg).await;
    }
    let out = out.clone();
    notify(stack, view, async move { out.send(msg).await }).await
}

/// Asks a client of a handshake revision through the layers (straight when there are none):
/// its answer, or why there is none (a layer's refusal reads as the client's error).
pub(crate) async fn ask<F>(
    stack: Option<&Stack>,
    view: impl FnOnce() -> View,
    ask: F,
) -> Result<serde_json::Value, BackChannelError>
where
    F: std::future::Future<Output = Result<serde_json::Value, BackChannelError>> + Send + 'static,
{
    let Some(stack) = stack else {
        return ask.await;
    };
    let req = McpRequest::new(
        view(),
        Box::pin(async move { McpResponse::asked(ask.await) }),
    );
    match run(stack, req).await.kind {
        response::Kind::Asked(answer) => answer,
        response::Kind::Refused(e) => Err(BackChannelError::Client(e)),
        response::Kind::Served(_) | response::Kind::Sent(_) => Err(BackChannelError::Closed),
    }
}

/// Passes `req` through the stack and returns what it came to. A layer's error is the
/// request's (`McpResponse::failed`); a layer that panics costs this message an internal error,
/// and nothing else.
pub(crate) async fn run(stack: &Stack, req: McpRequest) -> McpResponse {
    let method = req.method().to_owned();
    let passed = AssertUnwindSafe(stack.clone().oneshot(req))
        .catch_unwind()
        .await;
    match passed {
        Ok(Ok(answer)) => answer,
        Ok(Err(e)) => McpResponse::failed(e),
        Err(_) => {
            tracing::error!(method, "a middleware layer panicked");
            McpResponse::error(crate::protocol::Error::internal(
                "The server failed with an internal error",
            ))
        }
    }
}
