//! The tools of the suite's `tasks-*` scenarios (the tasks extension,
//! `io.modelcontextprotocol/tasks`): names, arguments and texts are the suite's. A tool with
//! `task = optional` is a task when the request declared the extension and a plain call
//! otherwise; `task = required` answers `-32021` without it.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{ElicitAction, ElicitRequest, ElicitResult};
use rondo_mcp::tool;
use std::time::Duration;

/// Greets `name` (never a task).
#[tool]
async fn greet(name: String) -> String {
    format!("Hello, {name}!")
}

/// Sleeps `seconds` (at most 10 minutes), then says so.
#[tool(task = optional)]
async fn slow_compute(seconds: f64, label: Option<String>) -> String {
    let secs = if seconds.is_finite() {
        seconds.clamp(0.0, 600.0)
    } else {
        0.0
    };
    tokio::time::sleep(Duration::from_secs_f64(secs)).await;
    match label {
        Some(label) => format!("{label}: computed after {secs} s"),
        None => format!("Computed after {secs} s"),
    }
}

/// A job that runs only as a task, and ends with a tool error (`isError`).
#[tool(task = required)]
async fn failing_job() -> CallToolResult {
    tokio::time::sleep(Duration::from_millis(500)).await;
    CallToolResult::error("The job failed, as this test job always does")
}

/// The JSON-RPC error `protocol_error_job` ends with: an application-defined code (JSON-RPC's
/// server-error range), not `-32603`, which would say the server is broken.
pub const JOB_ERROR: i64 = -32000;

/// A job whose task ends `failed`: a JSON-RPC error, not a tool result.
#[tool(task = optional)]
async fn protocol_error_job(cx: &Cx) -> String {
    tokio::time::sleep(Duration::from_millis(200)).await;
    let why = "The job hit a protocol error, as this test job always does";
    cx.fail(Error::new(JOB_ERROR, why)).await
}

/// A form of one field.
fn form(message: &str, field: &str, kind: &str) -> ElicitRequest {
    let schema = serde_json::json!({
        "type": "object",
        "properties": {field: {"type": kind}},
        "required": [field]
    });
    ElicitRequest::Form {
        message: message.into(),
        requested_schema: schema.as_object().cloned().unwrap_or_default(),
    }
}

/// Whether an answer accepted with `field: true`.
fn accepted(answer: &Result<ElicitResult, AskError>, field: &str) -> bool {
    answer.as_ref().is_ok_and(|r| {
        r.action == ElicitAction::Accept
            && r.content.as_ref().and_then(|c| c.get(field)) == Some(&serde_json::json!(true))
    })
}

/// Asks to confirm deleting `filename` (one question inside the task), then reports.
#[tool(task = optional)]
async fn confirm_delete(cx: &Cx, filename: String) -> String {
    let answer = cx
        .elicit(
            "confirm",
            form(&format!("Delete {filename}?"), "confirm", "boolean"),
        )
        .await;
    if accepted(&answer, "confirm") {
        format!("Deleted {filename}")
    } else {
        format!("Kept {filename}")
    }
}

/// Asks two questions at once; answered one at a time, it waits for the second.
#[tool(task = optional)]
async fn multi_input(cx: &Cx) -> String {
    let (name, confirm) = tokio::join!(
        cx.elicit("name", form("Your name?", "name", "string")),
        cx.elicit("confirm", form("Go ahead?", "confirm", "boolean")),
    );
    let name = name
        .ok()
        .and_then(|r| r.content)
        .and_then(|c| c.get("name").and_then(|v| v.as_str()).map(str::to_owned))
        .unwrap_or_default();
    format!("name={name}, confirmed={}", accepted(&confirm, "confirm"))
}

/// Asks the user's name by multi-round retries first, then becomes a task that greets them.
#[tool(task = required, task_start = explicit, asks = [crate::asks::user_name])]
async fn test_tool_with_task(cx: &Cx) -> String {
    let answer = cx.ask(crate::asks::user_name()).await;
    cx.start_task().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    format!("{} (async)", crate::asks::hello(answer))
}

/// The tasks scenarios' tools.
pub fn tools() -> rondo_mcp::ToolSet {
    rondo_mcp::tools![
        greet,
        slow_compute,
        failing_job,
        protocol_error_job,
        confirm_delete,
        multi_input,
        test_tool_with_task
    ]
}
