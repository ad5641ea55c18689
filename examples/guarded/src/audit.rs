//! [`Audit`]: one record per tool call: when, who, which tool, in which flow and round, and
//! how it ended.

use rondo_mcp::middleware::{McpRequest, McpResponse};
use serde::Serialize;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// How a tool call ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Outcome {
    /// The tool answered.
    Ok,
    /// The tool answered with an error the model reads (`isError: true`).
    ToolError,
    /// The call asked the client for input first (2026-07-28); the flow goes on in a later
    /// round, which has its own record.
    InputRequired,
    /// The request was answered with a JSON-RPC error: by the server (an unknown tool, bad
    /// arguments) or by a layer inside this one (the rate limit, the policy).
    Error {
        /// The error's code.
        code: i64,
        /// Its message.
        message: String,
    },
    /// The client cancelled it (or went away) before it was answered.
    Cancelled,
}

/// One tool call.
#[derive(Debug, Clone, Serialize)]
pub struct AuditRecord {
    /// When it started, in milliseconds since the Unix epoch.
    pub at_ms: u128,
    /// Who called it: the principal's id, `None` when the transport knows no one.
    pub principal: Option<String>,
    /// The client application, as it named itself.
    pub client: Option<String>,
    /// The tool.
    pub tool: String,
    /// The protocol revision of the call.
    pub revision: String,
    /// The multi-round flow it belongs to (a retry carrying `requestState`).
    pub flow: Option<String>,
    /// Its round in that flow (0: a first call).
    pub round: u32,
    /// How it ended.
    pub outcome: Outcome,
    /// How long it took, in milliseconds.
    pub elapsed_ms: u128,
}

/// Where the records go.
pub type Sink = Arc<dyn Fn(AuditRecord) + Send + Sync>;

/// The audit layer: put it outermost (add it last) so that it records what the layers inside
/// it refused too.
#[derive(Clone)]
pub struct Audit {
    sink: Sink,
}

impl Audit {
    /// Records to `sink`.
    pub fn new(sink: impl Fn(AuditRecord) + Send + Sync + 'static) -> Self {
        Audit {
            sink: Arc::new(sink),
        }
    }

    /// Records as JSON lines on stderr (a stdio server's stdout carries MCP only).
    pub fn to_stderr() -> Self {
        Audit::new(|record| {
            if let Ok(line) = serde_json::to_string(&record) {
                eprintln!("audit {line}");
            }
        })
    }
}

impl<S> tower::Layer<S> for Audit {
    type Service = AuditService<S>;
    fn layer(&self, inner: S) -> AuditService<S> {
        AuditService {
            inner,
            sink: self.sink.clone(),
        }
    }
}

/// [`Audit`] around a service.
#[derive(Clone)]
pub struct AuditService<S> {
    inner: S,
    sink: Sink,
}

type Answer<E> = Pin<Box<dyn Future<Output = Result<McpResponse, E>> + Send>>;

/// Writes the record when it is dropped: a call the client cancelled drops the layer's
/// future before it ends, and is recorded all the same.
struct Pending {
    record: Option<AuditRecord>,
    started: Instant,
    sink: Sink,
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some(mut record) = self.record.take() {
            record.elapsed_ms = self.started.elapsed().as_millis();
            (self.sink)(record);
        }
    }
}

impl<S> tower::Service<McpRequest> for AuditService<S>
where
    S: tower::Service<McpRequest, Response = McpResponse>,
    S::Future: Send + 'static,
{
    type Response = McpResponse;
    type Error = S::Error;
    type Future = Answer<S::Error>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: McpRequest) -> Self::Future {
        if !req.is_tool_call() {
            return Box::pin(self.inner.call(req));
        }
        let mut pending = Pending {
            record: Some(AuditRecord {
                at_ms: SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |d| d.as_millis()),
                principal: req.principal().map(|p| p.id().to_owned()),
                client: req.client_info().map(|c| c.name.clone()),
                tool: req.name().unwrap_or_default().to_owned(),
                revision: req.revision().to_string(),
                flow: req.flow().map(str::to_owned),
                round: req.round(),
                outcome: Outcome::Cancelled,
                elapsed_ms: 0,
            }),
            started: Instant::now(),
            sink: self.sink.clone(),
        };
        let answer = self.inner.call(req);
        Box::pin(async move {
            let response = answer.await;
            if let (Some(record), Ok(response)) = (pending.record.as_mut(), &response) {
                record.outcome = outcome(response);
            }
            drop(pending);
            response
        })
    }
}

fn outcome(response: &McpResponse) -> Outcome {
    if let Some(e) = response.as_error() {
        Outcome::Error {
            code: e.code,
            message: e.message.clone(),
        }
    } else if response.is_cancelled() {
        Outcome::Cancelled
    } else if response.is_input_required() {
        Outcome::InputRequired
    } else if response.is_tool_error() {
        Outcome::ToolError
    } else {
        Outcome::Ok
    }
}
