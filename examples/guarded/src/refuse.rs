//! What the rate limit and the policy share: a layer that looks at a request, and either
//! answers it with an error or passes it on.

use rondo_mcp::Error;
use rondo_mcp::middleware::{McpRequest, McpResponse};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// A check made before a request goes on.
pub trait Check: Clone {
    /// `None` when `req` may go on; else the error it is answered with.
    fn check(&self, req: &McpRequest) -> Option<Error>;
}

/// A [`Check`] around a service: what the rate limit and the policy layers make.
#[derive(Clone)]
pub struct Checked<C, S> {
    pub(crate) check: C,
    pub(crate) inner: S,
}

impl<C, S> tower::Service<McpRequest> for Checked<C, S>
where
    C: Check,
    S: tower::Service<McpRequest, Response = McpResponse>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = McpResponse;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<McpResponse, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: McpRequest) -> Self::Future {
        match self.check.check(&req) {
            Some(refused) => Box::pin(std::future::ready(Ok(McpResponse::error(refused)))),
            None => Box::pin(self.inner.call(req)),
        }
    }
}
