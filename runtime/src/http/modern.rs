//! The stateless 2026-07-28 path: one POST, one request or notification.
//!
//! Validation order (what the conformance suite's `server-stateless` expects, and the order
//! in which the spec's rules depend on each other): `_meta` complete (`-32602`, 400), then
//! `MCP-Protocol-Version` = `_meta` version (`-32020`, 400), then the version is served
//! (`-32022`, 400), then the routing param (`name` or `uri`) is a string (`-32602`, 400), then
//! `Mcp-Method` / `Mcp-Name` / `Mcp-Param-*` (`-32020`, 400), then, on a protected endpoint,
//! the scopes the target declares (403 `insufficient_scope`); the
//! dispatcher then answers, `-32601` as 404. `Mcp-Session-Id` and `Last-Event-ID` are ignored
//! (§ Earlier Streamable HTTP Revisions).

use super::body;
use super::endpoint::Endpoint;
use super::exchange::{Exchange, Job, Opts, Served};
use super::headers;
use crate::cx::Principal;
use crate::dispatch::Route;
use crate::era::ModernMeta;
use crate::handler::Handler;
use crate::protocol::{Body, Error, Inbound, Method, Request, RequestMeta};
use http::{HeaderMap, StatusCode};
use tokio_util::sync::CancellationToken;

/// Checks one modern POST: what it is answered with, or the request to run.
pub(crate) fn post<H: Handler>(
    ep: &Endpoint<H>,
    headers: &HeaderMap,
    msg: Inbound,
    principal: Option<Principal>,
    accepts_json: bool,
) -> Served<H> {
    match msg {
        Inbound::Request(req) => request(ep, headers, req, principal, accepts_json),
        // 2026-07-28 defines no client notification over HTTP; accepting and ignoring one is
        // what § Sending Messages allows.
        Inbound::Notification { method, .. } => {
            tracing::debug!(%method, "notification ignored");
            Served::Now(body::accepted())
        }
        // "The client MUST NOT send JSON-RPC responses."
        Inbound::Response { .. } | Inbound::BadResponse { .. } => Served::Now(body::refuse(
            StatusCode::BAD_REQUEST,
            "a response needs the Mcp-Session-Id of a 2025-11-25 session",
        )),
    }
}

fn request<H: Handler>(
    ep: &Endpoint<H>,
    headers: &HeaderMap,
    mut req: Request,
    principal: Option<Principal>,
    accepts_json: bool,
) -> Served<H> {
    let meta = match validate(ep, headers, &mut req) {
        Ok(meta) => meta,
        Err(e) => {
            tracing::debug!(method = %req.method, code = e.code, "request refused before dispatch");
            return Served::Now(body::error(StatusCode::BAD_REQUEST, Some(&req.id), &e));
        }
    };
    // The target's declared scopes, taken from the checked body (never from `Mcp-Name`).
    #[cfg(feature = "auth")]
    if let Some(p) = &ep.protection
        && let Some(refused) = p.check_target(&*ep.engine.handler, &req, principal.as_ref())
    {
        return Served::Now(refused);
    }
    let job = Job {
        engine: ep.engine.clone(),
        req,
        route: Route::Modern(Ok(meta)),
        principal,
        cancel: CancellationToken::new(),
        step_up: ep.step_up_watch(),
    };
    let opts = Opts {
        modern: true,
        accepts_json,
        keep_alive: ep.config.keep_alive,
    };
    Served::Run(Box::new(Exchange {
        job,
        opts,
        hold: None,
    }))
}

/// Every check that answers 400 (see the module docs for the order). The checked `_meta` goes
/// on to the dispatcher, which does not check it again.
fn validate<H: Handler>(
    ep: &Endpoint<H>,
    headers: &HeaderMap,
    req: &mut Request,
) -> Result<ModernMeta, Error> {
    let meta = RequestMeta::of(req.params.meta.take())?;
    headers::check_version(headers, &meta.protocol_version)?;
    let meta = ModernMeta::served(meta)?;
    check_target(req)?;
    headers::check_method_and_name(headers, req)?;
    if req.method == Method::ToolsCall && ep.engine.config.info.capabilities.tools.is_some() {
        check_params(ep, headers, req)?;
    }
    Ok(meta)
}

/// The params of `tools/call`, `prompts/get`, `resources/read` and the task methods (the param
/// they are routed by, `params.name`, `params.uri` or `params.taskId`, is a required string) are
/// well-formed: a malformed request
/// is `-32602` with 400 (2026-07-28 § Basic: "A request missing any required field is
/// malformed ... On HTTP, the response status MUST be 400 Bad Request").
fn check_target(req: &Request) -> Result<(), Error> {
    match &req.params.body {
        Body::Target(Err(e)) | Body::Task(Err(e)) => Err(e.clone()),
        _ => Ok(()),
    }
}

/// `Mcp-Param-*` headers against the tool's `x-mcp-header` arguments, which the handler
/// looked up by name (the [`Router`](crate::Router) computed them when it was built).
fn check_params<H: Handler>(
    ep: &Endpoint<H>,
    headers: &HeaderMap,
    req: &Request,
) -> Result<(), Error> {
    let Some(call) = req.params.target() else {
        return Ok(());
    };
    let params = ep.engine.handler.header_params(&call.target);
    headers::check_params(headers, &params, &call.arguments)
}
