//! OpenTelemetry spans (the `otel` feature, design §33): each request's `tracing` span becomes
//! an OpenTelemetry SERVER span through `tracing-opentelemetry`, named and described by the
//! MCP semantic conventions, the child of the W3C trace context in the request's `_meta`
//! (SEP-414), linked to the previous round of its flow through the sealed `requestState`; the
//! server's own requests to a 2025-era client carry the current trace context.
//!
//! Everything here goes through the span's subscriber: without the `tracing-opentelemetry`
//! layer (or with no subscriber) each call finds nothing to do. The W3C parsing is the SDK's
//! propagators'; what they get is bounded first (`protocol::TraceMeta`).
//!
//! Attributes follow the OpenTelemetry semantic conventions for MCP of the GenAI semantic
//! conventions, v0.1.0 (their page gen-ai/mcp.md): `mcp.method.name`, `mcp.protocol.version`,
//! `jsonrpc.request.id`, `gen_ai.tool.name` and `gen_ai.operation.name` (`execute_tool`),
//! `gen_ai.prompt.name`, `mcp.resource.uri`, `error.type` and `rpc.response.status_code`. The
//! flow's own are Rondo's (`rondo.*`).

#[cfg(feature = "otlp")]
mod otlp;
#[cfg(feature = "otlp")]
pub use otlp::{Otlp, OtlpError};

use crate::protocol::{Body, JsonObject, Method, Request, RequestId, Revision, TraceMeta};
use opentelemetry::baggage::BaggageExt as _;
use opentelemetry::propagation::{Extractor, Injector, TextMapPropagator};
use opentelemetry::trace::{Status, TraceContextExt};
use opentelemetry::{Context, KeyValue};
use opentelemetry_sdk::propagation::{BaggagePropagator, TraceContextPropagator};
use serde_json::Value;
use tracing::Span;
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// The span of one request: the fields every build logs (`method`, `id`, `revision`, `name`,
/// `round`), and the OpenTelemetry span's name and kind.
pub(crate) fn request_span(req: &Request) -> Span {
    let span = tracing::info_span!(
        "mcp.request",
        method = %req.method,
        id = %req.id,
        revision = tracing::field::Empty,
        name = tracing::field::Empty,
        round = tracing::field::Empty,
        otel.name = tracing::field::Empty,
        otel.kind = "server",
    );
    if span.is_disabled() {
        // No subscriber wants it: no name is written (BENCHMARKS.md, "Tracing").
        return span;
    }
    let target = match (&req.method, &req.params.body) {
        (Method::ToolsCall | Method::PromptsGet, Body::Target(Ok(p))) => Some(p.target.as_str()),
        _ => None,
    };
    // `{mcp.method.name} {target}` for a tool or a prompt; a resource's URI is left out of the
    // name (unbounded cardinality), as the conventions advise.
    let method = req.method.as_str();
    match target {
        Some(t) => span.record("otel.name", format!("{method} {t}")),
        None => span.record("otel.name", method),
    };
    span
}

/// Makes `span` the child of the trace context the request carried, and gives it the
/// attributes known before the request runs.
pub(crate) fn adopt(
    span: &Span,
    req: &Request,
    revision: Option<Revision>,
    trace: Option<&TraceMeta>,
) {
    if span.is_disabled() {
        return;
    }
    if let Some(trace) = trace {
        let parent = extract(trace);
        if parent.span().span_context().is_valid() || !parent.baggage().is_empty() {
            // Fails only when the layer is not installed, or the span started already (it
            // has not: it was just made).
            let _ = span.set_parent(parent);
        }
    }
    span.set_attribute("mcp.method.name", req.method.as_str().to_owned());
    span.set_attribute("jsonrpc.request.id", request_id(&req.id));
    if let Some(r) = revision {
        span.set_attribute("mcp.protocol.version", r.as_str());
    }
    let Body::Target(Ok(params)) = &req.params.body else {
        return;
    };
    let target = params.target.clone();
    match req.method {
        Method::ToolsCall => {
            span.set_attribute("gen_ai.tool.name", target);
            span.set_attribute("gen_ai.operation.name", "execute_tool");
        }
        Method::PromptsGet => span.set_attribute("gen_ai.prompt.name", target),
        Method::ResourcesRead => span.set_attribute("mcp.resource.uri", target),
        _ => {}
    }
}

/// The id as the conventions write it: a number's digits, a string as it is.
fn request_id(id: &RequestId) -> String {
    match id {
        RequestId::Number(n) => n.to_string(),
        RequestId::String(s) => s.clone(),
    }
}

/// The parent context of `trace`: its span context (the trace context propagator) and its
/// baggage (the baggage propagator). Malformed values come to an empty context.
fn extract(trace: &TraceMeta) -> Context {
    let cx = TraceContextPropagator::new().extract(trace);
    BaggagePropagator::new().extract_with_context(&cx, trace)
}

impl Extractor for TraceMeta {
    fn get(&self, key: &str) -> Option<&str> {
        match key {
            TraceMeta::TRACEPARENT => self.traceparent.as_deref(),
            TraceMeta::TRACESTATE => self.tracestate.as_deref(),
            TraceMeta::BAGGAGE => self.baggage.as_deref(),
            _ => None,
        }
    }

    fn keys(&self) -> Vec<&str> {
        vec![
            TraceMeta::TRACEPARENT,
            TraceMeta::TRACESTATE,
            TraceMeta::BAGGAGE,
        ]
    }
}

/// Marks the current request's span as failed with a JSON-RPC error.
pub(crate) fn failed(code: i64, message: &str) {
    let span = Span::current();
    if span.is_disabled() {
        return;
    }
    span.set_attribute("error.type", code.to_string());
    span.set_attribute("rpc.response.status_code", code.to_string());
    span.set_status(Status::error(message.to_owned()));
}

/// Marks the current request's span as a tool call whose result is an error (`isError`).
pub(crate) fn tool_error() {
    let span = Span::current();
    span.set_attribute("error.type", "tool_error");
    span.set_status(Status::error("tool_error"));
}

/// Records the flow the current request belongs to, and the round it serves.
pub(crate) fn flow(id: &str, round: u32) {
    let span = Span::current();
    span.set_attribute("rondo.flow.id", id.to_owned());
    span.set_attribute("rondo.flow.round", i64::from(round));
}

/// The current span's context as a `traceparent`, for the next round's `requestState`
/// (`None` without an OpenTelemetry span).
pub(crate) fn carried() -> Option<String> {
    let cx = Span::current().context();
    if !cx.span().span_context().is_valid() {
        return None;
    }
    let mut out = TraceMeta::default();
    TraceContextPropagator::new().inject_context(&cx, &mut out);
    out.traceparent
}

/// Links the current span to the previous round's, whose `traceparent` the `requestState`
/// carried: a flow's rounds read as one story even when the client sends no trace context, or
/// another one on each retry.
pub(crate) fn follow(previous: &str) {
    let trace = TraceMeta {
        traceparent: Some(previous.to_owned()),
        ..TraceMeta::default()
    };
    let cx = TraceContextPropagator::new().extract(&trace);
    let link = cx.span().span_context().clone();
    Span::current()
        .add_link_with_attributes(link, vec![KeyValue::new("rondo.link", "previous_round")]);
}

impl Injector for TraceMeta {
    fn set(&mut self, key: &str, value: String) {
        match key {
            TraceMeta::TRACEPARENT => self.traceparent = Some(value),
            TraceMeta::TRACESTATE => self.tracestate = Some(value),
            TraceMeta::BAGGAGE => self.baggage = Some(value),
            _ => {}
        }
    }
}

/// Writes the current trace context (`traceparent`, and `tracestate` and `baggage` when there
/// are any) into `params._meta` of a request the server sends a 2025-era client.
pub(crate) fn inject(params: Option<Value>) -> Option<Value> {
    let cx = Span::current().context();
    if !cx.span().span_context().is_valid() {
        return params;
    }
    let mut trace = TraceMeta::default();
    TraceContextPropagator::new().inject_context(&cx, &mut trace);
    BaggagePropagator::new().inject_context(&cx, &mut trace);
    let mut params = match params {
        Some(Value::Object(p)) => p,
        None => JsonObject::new(),
        // Params are always an object; anything else is sent as it was.
        other => return other,
    };
    let meta = params
        .entry("_meta")
        .or_insert_with(|| Value::Object(JsonObject::new()));
    if let Value::Object(meta) = meta {
        for (key, value) in [
            (TraceMeta::TRACEPARENT, trace.traceparent),
            (
                TraceMeta::TRACESTATE,
                trace.tracestate.filter(|s| !s.is_empty()),
            ),
            (TraceMeta::BAGGAGE, trace.baggage.filter(|s| !s.is_empty())),
        ] {
            if let Some(v) = value {
                meta.insert(key.to_owned(), Value::String(v));
            }
        }
    }
    Some(Value::Object(params))
}

#[cfg(test)]
mod tests;
