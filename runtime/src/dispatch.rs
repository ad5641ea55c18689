//! Routing one request to the handler, for either revision, and shaping its answer.
//!
//! Era selection (MCP 2026-07-28 § Versioning, Backward Compatibility): a request carrying the
//! modern `_meta` protocol version is served statelessly, whatever its method (so an
//! `initialize` with modern metadata is an unknown method); an `initialize` without it opens a
//! 2025-11-25 session; any other request is served by the session of its connection when
//! there is one, and otherwise as a modern request missing its `_meta` (`-32602`).

use crate::backchannel::{BackChannel, Outbound};
use crate::canonical;
use crate::cx::{AskState, Cx, Principal};
use crate::handler::{CacheScope, Handler};
use crate::protocol::{
    self, CallToolResult, ClientCapabilities, CompleteRequest, Error, Implementation, JsonObject,
    LEGACY_VERSIONS, LoggingLevel, MODERN_VERSIONS, Request, RequestMeta, Revision, meta,
};
use crate::server::Server;
use crate::state::{self, Answer, Asked, Binding, StatePayload};
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::pin;
use std::sync::{Arc, Mutex};
use std::task::Poll;
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

/// What a handler's future came to.
enum Driven<T> {
    Done(T),
    InputRequired,
    Aborted(Error),
    Panicked(String),
    Cancelled,
}

/// Polls a handler future to completion, a recorded question (2026-07-28), an abort, a panic
/// or cancellation. After every poll that returns `Pending`, the questions the pass recorded
/// are checked: if there are any, the future is dropped (the tool's locals with it) and the
/// request answers `InputRequiredResult` with all of them.
async fn drive<F: Future>(cx: &Cx, fut: F) -> Driven<F::Output> {
    let mut fut = pin!(fut);
    let run = std::future::poll_fn(|tcx| {
        match std::panic::catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(tcx))) {
            Ok(Poll::Ready(v)) => Poll::Ready(Driven::Done(v)),
            Ok(Poll::Pending) => {
                let mut st = cx.state();
                if let Some(e) = st.abort.take() {
                    Poll::Ready(Driven::Aborted(e))
                } else if !st.questions.is_empty() {
                    Poll::Ready(Driven::InputRequired)
                } else {
                    Poll::Pending
                }
            }
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "non-string panic payload".into());
                Poll::Ready(Driven::Panicked(msg))
            }
        }
    });
    tokio::select! {
        biased;
        _ = cx.cancel.cancelled() => Driven::Cancelled,
        d = run => d,
    }
}

/// The per-request facts that do not depend on the method.
struct Origin {
    revision: Revision,
    caps: ClientCapabilities,
    client_info: Option<Implementation>,
    log_level: Option<LoggingLevel>,
    progress_token: Option<Value>,
    back: Option<Arc<BackChannel>>,
}

/// The answer to one request before it becomes a JSON-RPC message.
type Answered = Result<Option<Value>, Error>;

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

    /// The methods both revisions share.
    async fn method(&self, req: &Request, conn: &Conn, origin: Origin) -> Answered {
        let caps = &self.config.info.capabilities;
        let rev = origin.revision;
        let empty = JsonObject::new();
        let params = req.params.as_ref().unwrap_or(&empty);
        let h = &*self.handler;
        match req.method.as_str() {
            "tools/list" if caps.tools.is_some() => {
                let cx = self.cx(req, conn, origin, None, AskState::default(), 0);
                self.list(&cx, h.list_tools(&cx), |mut tools| {
                    if !rev.is_modern() {
                        for t in &mut tools {
                            if t.output_schema
                                .as_ref()
                                .is_some_and(|s| s.get("type") != Some(&json!("object")))
                            {
                                t.output_schema = None;
                            }
                        }
                    }
                    json!({ "tools": tools })
                })
                .await
            }
            "tools/call" if caps.tools.is_some() => {
                let name = string_param(Some(params), "name")?;
                let arguments = object_param(params, "arguments")?;
                let bound = self.rounds(req, conn, &origin, name, &json!(arguments))?;
                let cx = self.cx(req, conn, origin, Some(name), bound.ask, bound.round);
                let out = drive(&cx, h.call_tool(&cx, name, arguments)).await;
                let out = match out {
                    Driven::Panicked(msg) => {
                        tracing::error!(tool = name, panic = %msg, "tool panicked");
                        Driven::Done(Ok(CallToolResult::error(format!(
                            "Tool `{name}` failed with an internal error"
                        ))))
                    }
                    other => other,
                };
                self.finish_mrtr(&cx, bound.binding, out, |mut r: CallToolResult| {
                    if !rev.is_modern()
                        && r.structured_content
                            .as_ref()
                            .is_some_and(|v| !v.is_object())
                    {
                        r.structured_content = None;
                    }
                    r
                })
            }
            "prompts/list" if caps.prompts.is_some() => {
                let cx = self.cx(req, conn, origin, None, AskState::default(), 0);
                self.list(
                    &cx,
                    h.list_prompts(&cx),
                    |prompts| json!({ "prompts": prompts }),
                )
                .await
            }
            "prompts/get" if caps.prompts.is_some() => {
                let name = string_param(Some(params), "name")?;
                let arguments = object_param(params, "arguments")?;
                let bound = self.rounds(req, conn, &origin, name, &json!(arguments))?;
                let cx = self.cx(req, conn, origin, Some(name), bound.ask, bound.round);
                let out = drive(&cx, h.get_prompt(&cx, name, arguments)).await;
                self.finish_mrtr(&cx, bound.binding, out, |r| r)
            }
            "resources/list" if caps.resources.is_some() => {
                let cx = self.cx(req, conn, origin, None, AskState::default(), 0);
                self.list(
                    &cx,
                    h.list_resources(&cx),
                    |resources| json!({ "resources": resources }),
                )
                .await
            }
            "resources/templates/list" if caps.resources.is_some() => {
                let cx = self.cx(req, conn, origin, None, AskState::default(), 0);
                self.list(
                    &cx,
                    h.list_resource_templates(&cx),
                    |t| json!({ "resourceTemplates": t }),
                )
                .await
            }
            "resources/read" if caps.resources.is_some() => {
                let uri = string_param(Some(params), "uri")?;
                let bound = self.rounds(req, conn, &origin, uri, &Value::Null)?;
                let cx = self.cx(req, conn, origin, Some(uri), bound.ask, bound.round);
                let out = drive(&cx, h.read_resource(&cx, uri)).await;
                self.finish_mrtr(&cx, bound.binding, out, |r| r)
            }
            "completion/complete" if caps.completions.is_some() => {
                let request: CompleteRequest =
                    serde_json::from_value(Value::Object(params.clone())).map_err(|e| {
                        Error::invalid_params(format!("Invalid completion request: {e}"))
                    })?;
                let cx = self.cx(req, conn, origin, None, AskState::default(), 0);
                match drive(&cx, h.complete(&cx, request)).await {
                    Driven::Done(r) => {
                        Ok(Some(self.complete(rev, json!({ "completion": r? }), false)))
                    }
                    other => settle(other),
                }
            }
            m => Err(Error::method_not_found(m)),
        }
    }

    /// Runs a list method (never multi-round) and wraps its answer as a cacheable result.
    async fn list<T, F>(&self, cx: &Cx, fut: F, wrap: impl FnOnce(T) -> Value) -> Answered
    where
        F: Future<Output = Result<T, Error>>,
    {
        match drive(cx, fut).await {
            Driven::Done(r) => Ok(Some(self.complete(cx.revision, wrap(r?), true))),
            other => settle(other),
        }
    }

    /// Turns the end of a multi-round-capable method into its answer.
    fn finish_mrtr<T: Serialize>(
        &self,
        cx: &Cx,
        binding: Binding,
        out: Driven<Result<T, Error>>,
        adjust: impl FnOnce(T) -> T,
    ) -> Answered {
        let cacheable = cx.method == "resources/read";
        match out {
            Driven::Done(r) => {
                let v = serde_json::to_value(adjust(r?))
                    .map_err(|e| Error::internal(format!("result does not serialise: {e}")))?;
                let mut v = self.complete(cx.revision, v, cacheable);
                // A result built from the client's answers must not be cached (MCP 2026-07-28
                // § Caching: retries carrying inputResponses/requestState).
                if cacheable && cx.revision.is_modern() && (cx.round > 0 || !cx.state().answers.is_empty()) {
                    v["ttlMs"] = json!(0);
                    v["cacheScope"] = json!(CacheScope::Private.as_str());
                }
                Ok(Some(v))
            }
            Driven::InputRequired => self.input_required(cx, binding).map(Some),
            other => settle(other),
        }
    }

    /// Adds the revision's envelope to a complete result: `resultType`, `_meta.serverInfo` and,
    /// for cacheable methods, `ttlMs`/`cacheScope` (2026-07-28 only).
    fn complete(&self, rev: Revision, mut v: Value, cacheable: bool) -> Value {
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

    /// Opens and checks the `requestState` and `inputResponses` of a multi-round method.
    fn rounds(
        &self,
        req: &Request,
        conn: &Conn,
        origin: &Origin,
        target: &str,
        args: &Value,
    ) -> Result<Bound, Error> {
        let binding = Binding {
            method: req.method.clone(),
            target: target.to_owned(),
            args_digest: canonical::short_digest(args),
            principal: conn.principal.as_ref().map(|p| p.id().to_owned()),
            audience: self.config.audience.clone(),
        };
        let mut ask = AskState {
            mrtr: true,
            ..AskState::default()
        };
        if !origin.revision.is_modern() {
            return Ok(Bound {
                binding,
                ask,
                round: 0,
            });
        }
        let params = req.params.as_ref();
        let responses = match params.and_then(|p| p.get("inputResponses")) {
            None => None,
            Some(Value::Object(m)) => Some(m),
            Some(_) => return Err(Error::invalid_params("`inputResponses` must be an object")),
        };
        if let Some((key, _)) = responses
            .into_iter()
            .flatten()
            .find(|(_, v)| !v.is_object())
        {
            return Err(Error::invalid_params(format!(
                "`inputResponses.{key}` must be an object"
            )));
        }
        let Some(token) = params.and_then(|p| p.get("requestState")) else {
            // No question was rendered for these answers yet: they are matched by key alone to
            // what this pass asks (unknown keys are ignored, MRTR § Error Handling).
            ask.unbound = responses.cloned().unwrap_or_default();
            return Ok(Bound {
                binding,
                ask,
                round: 0,
            });
        };
        let payload = self.open_state(token, &binding).map_err(|why| {
            tracing::warn!(reason = why, "requestState rejected");
            state::rejected()
        })?;
        tracing::Span::current().record("round", payload.r);
        ask.answers = payload.ans;
        ask.memo = payload.memo;
        for asked in payload.q {
            if let Some(v) = responses.and_then(|r| r.get(&asked.w)) {
                ask.answers.retain(|a| !(a.k == asked.k && a.d == asked.d));
                ask.answers.push(Answer {
                    k: asked.k,
                    d: asked.d,
                    v: v.clone(),
                });
            }
        }
        Ok(Bound {
            binding,
            ask,
            round: payload.r,
        })
    }

    fn open_state(&self, token: &Value, binding: &Binding) -> Result<StatePayload, &'static str> {
        let token = token.as_str().ok_or("not a string")?;
        // A sealed token is base64 of 45 bytes of framing plus the payload.
        if token.len() > (self.config.max_state_bytes + 45).div_ceil(3) * 4 {
            return Err("too long");
        }
        let plain = self.config.keys.open(token)?;
        let payload: StatePayload =
            serde_json::from_slice(&plain).map_err(|_| "malformed payload")?;
        state::check_binding(&payload, binding, self.config.clock.now_ms())?;
        Ok(payload)
    }

    /// Builds the `InputRequiredResult` of a pass that recorded questions.
    fn input_required(&self, cx: &Cx, binding: Binding) -> Result<Value, Error> {
        let cfg = &self.config;
        if cx.round + 1 > cfg.max_rounds {
            return Err(Error::invalid_params(format!(
                "The request needed more than {} rounds of input; start it again",
                cfg.max_rounds
            )));
        }
        let st = cx.state();
        let mut requests = JsonObject::new();
        let mut asked = Vec::with_capacity(st.questions.len());
        for q in &st.questions {
            let collides = st.questions.iter().filter(|o| o.key == q.key).count() > 1;
            let wire = if collides {
                format!("{}~{}", q.key, &q.digest[..8])
            } else {
                q.key.clone()
            };
            requests.insert(wire.clone(), q.request.to_wire());
            asked.push(Asked {
                w: wire,
                k: q.key.clone(),
                d: q.digest.clone(),
            });
        }
        let payload = StatePayload {
            exp: cfg.clock.now_ms() + cfg.state_ttl.as_millis() as u64,
            aud: binding.audience,
            m: binding.method,
            t: binding.target,
            a: binding.args_digest,
            p: binding.principal,
            r: cx.round + 1,
            q: asked,
            ans: st.answers.clone(),
            memo: st.memo.clone(),
        };
        let plain =
            serde_json::to_vec(&payload).map_err(|e| Error::internal(format!("state: {e}")))?;
        if plain.len() > cfg.max_state_bytes {
            tracing::error!(
                bytes = plain.len(),
                cap = cfg.max_state_bytes,
                "requestState too large"
            );
            return Err(Error::internal("The request's carried state is too large"));
        }
        let mut r = json!({
            "resultType": "input_required",
            "inputRequests": requests,
            "requestState": cfg.keys.seal(&plain),
        });
        if let Some(obj) = r.as_object_mut() {
            server_info_meta(obj, &cfg.info.implementation);
        }
        Ok(r)
    }

    fn cx(
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

/// A multi-round method's binding and opened state.
struct Bound {
    binding: Binding,
    ask: AskState,
    round: u32,
}

/// The non-`Done` ends of a method that cannot ask for input.
fn settle<T>(d: Driven<T>) -> Answered {
    match d {
        Driven::Done(_) | Driven::InputRequired => Err(Error::internal(
            "this method cannot ask the client for input",
        )),
        Driven::Aborted(e) => Err(e),
        Driven::Panicked(msg) => {
            tracing::error!(panic = %msg, "handler panicked");
            Err(Error::internal("The handler failed with an internal error"))
        }
        Driven::Cancelled => Ok(None),
    }
}

fn server_info_meta(obj: &mut JsonObject, info: &Implementation) {
    let meta = obj.entry("_meta").or_insert_with(|| json!({}));
    if let Some(m) = meta.as_object_mut() {
        m.entry(meta::SERVER_INFO).or_insert_with(|| json!(info));
    }
}

fn string_param<'a>(params: Option<&'a JsonObject>, key: &str) -> Result<&'a str, Error> {
    params
        .and_then(|p| p.get(key))
        .and_then(Value::as_str)
        .ok_or_else(|| Error::invalid_params(format!("`{key}` must be a string")))
}

fn object_param(params: &JsonObject, key: &str) -> Result<JsonObject, Error> {
    match params.get(key) {
        None | Some(Value::Null) => Ok(JsonObject::new()),
        Some(Value::Object(m)) => Ok(m.clone()),
        Some(_) => Err(Error::invalid_params(format!("`{key}` must be an object"))),
    }
}
