//! [`TaskLab`]: a hand-written server whose tools run as tasks (the tasks extension), one per
//! behaviour under test, with probes that show what ran and what was dropped.

use rondo_mcp::TaskMode;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{ElicitAction, ElicitRequest, JsonObject};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// The page a `pay` call sends the user to.
#[rondo_mcp::elicit(url, fallback = refuse)]
fn pay_page() -> rondo_mcp::Url {
    rondo_mcp::Url::new("Pay on this page", "https://pay.example/p/1")
}

/// A URL-mode question inside a task: the flow finishes at the tenth check.
#[rondo_mcp::tool(task = optional, asks = [pay_page])]
async fn pay(cx: &Cx) -> String {
    match cx.ask(pay_page()).await {
        rondo_mcp::Answer::Accept(flow) => {
            let checks = AtomicUsize::new(0);
            flow.finished(cx, || {
                let n = checks.fetch_add(1, Ordering::SeqCst);
                std::future::ready((n >= 9).then_some(n))
            })
            .await;
            "paid".to_owned()
        }
        _ => "not paid".to_owned(),
    }
}

/// The lab's `#[tool]`s.
fn pay_tools() -> rondo_mcp::ToolSet {
    rondo_mcp::tools![pay]
}

/// What the lab's tools did, shared with the test.
#[derive(Debug, Default)]
pub struct TaskProbe {
    /// Calls of `required` that ran.
    pub required_ran: AtomicUsize,
    /// Set when a `slow` call's future was dropped before it finished.
    pub slow_dropped: AtomicBool,
    /// Set when a `slow` call finished.
    pub slow_finished: AtomicBool,
}

/// Tools: `greet` (never a task), `slow {seconds}` (optional; sleeps), `ask` (optional; one
/// form question `confirm`), `two` (optional; `join!` of `a` and `b`), `fail` (optional;
/// returns a JSON-RPC error), `tool_error` (optional; an `isError` result), `boom` (optional;
/// panics), `required` (required), `explicit` (optional, started explicitly after asking
/// `user_name`), `twice` (optional; asks `n` twice in a loop), `pay` (optional, a `#[tool]`: a
/// URL-mode question whose flow finishes at its tenth check), `progress` (optional; reports
/// progress with a message, then sleeps a minute), `impatient {ms, then}` (optional; waits `ms`
/// for the answer to `confirm` in a `select!`, then, dropping the question, asks `name`
/// instead when `then` is `"ask"`, else works a minute).
#[derive(Debug, Default, Clone)]
pub struct TaskLab {
    /// What ran.
    pub probe: Arc<TaskProbe>,
}

/// Sets a flag when dropped unless disarmed: shows that a task's future was dropped.
struct DropFlag<'a>(&'a AtomicBool, bool);

impl Drop for DropFlag<'_> {
    fn drop(&mut self) {
        if self.1 {
            self.0.store(true, Ordering::SeqCst);
        }
    }
}

fn form(message: &str, field: &str, kind: &str) -> ElicitRequest {
    let schema =
        json!({"type": "object", "properties": {field: {"type": kind}}, "required": [field]});
    ElicitRequest::Form {
        message: message.into(),
        requested_schema: schema.as_object().cloned().unwrap_or_default(),
    }
}

/// The content field `field` of an accepted answer, as text.
fn field(r: &rondo_mcp::protocol::ElicitResult, field: &str) -> String {
    match r.action {
        ElicitAction::Accept => {
            r.content
                .as_ref()
                .and_then(|c| c.get(field))
                .map_or_else(String::new, |v| match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
        }
        other => format!("{other:?}"),
    }
}

impl Handler for TaskLab {
    fn info(&self) -> ServerInfo {
        ServerInfo::new("task-lab", "1.0.0")
            .with_tools()
            .with_tasks()
    }

    fn tool_task(&self, name: &str) -> Option<TaskMode> {
        match name {
            "greet" => None,
            "required" => Some(TaskMode::REQUIRED),
            "explicit" => Some(TaskMode::OPTIONAL.explicit_start()),
            _ => Some(TaskMode::OPTIONAL),
        }
    }

    async fn list_tools(&self, _cx: &Cx, _cursor: Option<&Cursor>) -> Result<Page<Tool>, Error> {
        use rondo_mcp::ToolBox as _;
        let mut tools = pay_tools().tools();
        let names = [
            "greet",
            "slow",
            "ask",
            "two",
            "fail",
            "tool_error",
            "boom",
            "required",
            "explicit",
            "twice",
            "progress",
            "impatient",
        ];
        tools.extend(
            names
                .iter()
                .map(|n| Tool::new(*n, "a lab tool", Tool::no_arguments())),
        );
        Ok(tools.into())
    }

    async fn call_tool(
        &self,
        cx: &Cx,
        name: &str,
        arguments: &JsonObject,
    ) -> Result<CallToolResult, Error> {
        let p = &self.probe;
        match name {
            "greet" => Ok(CallToolResult::text("Hello!")),
            "pay" => {
                use rondo_mcp::ToolBox as _;
                let set = pay_tools();
                match set.call(cx, name, arguments) {
                    Some(call) => call.await,
                    None => Err(Error::unknown_tool(name)),
                }
            }
            "slow" => {
                let secs = arguments
                    .get("seconds")
                    .and_then(Value::as_f64)
                    .unwrap_or(0.0);
                let mut flag = DropFlag(&p.slow_dropped, true);
                tokio::time::sleep(Duration::from_secs_f64(secs.clamp(0.0, 600.0))).await;
                flag.1 = false;
                p.slow_finished.store(true, Ordering::SeqCst);
                Ok(CallToolResult::text(format!("slept {secs} s")))
            }
            "ask" => {
                let r = cx
                    .elicit("confirm", form("Sure?", "confirm", "boolean"))
                    .await;
                let r = r.map_err(|e| Error::internal(e.to_string()))?;
                Ok(CallToolResult::text(format!(
                    "confirm: {}",
                    field(&r, "confirm")
                )))
            }
            "two" => {
                let (a, b) = tokio::join!(
                    cx.elicit("a", form("Name?", "name", "string")),
                    cx.elicit("b", form("Sure?", "confirm", "boolean")),
                );
                let (a, b) = (
                    a.map_err(|e| Error::internal(e.to_string()))?,
                    b.map_err(|e| Error::internal(e.to_string()))?,
                );
                Ok(CallToolResult::text(format!(
                    "{} {}",
                    field(&a, "name"),
                    field(&b, "confirm")
                )))
            }
            "twice" => {
                let mut seen = Vec::new();
                for _ in 0..2 {
                    let r = cx.elicit("n", form("A number?", "n", "integer")).await;
                    seen.push(field(&r.map_err(|e| Error::internal(e.to_string()))?, "n"));
                }
                Ok(CallToolResult::text(seen.join(",")))
            }
            "progress" => {
                cx.progress(1.0, Some(3.0), Some("step 1 of 3")).await;
                tokio::time::sleep(Duration::from_secs(60)).await;
                Ok(CallToolResult::text("done"))
            }
            "impatient" => {
                let ms = arguments.get("ms").and_then(Value::as_u64).unwrap_or(0);
                let asked = tokio::select! {
                    r = cx.elicit("confirm", form("Sure?", "confirm", "boolean")) => Some(r),
                    _ = tokio::time::sleep(Duration::from_millis(ms)) => None,
                };
                if let Some(r) = asked {
                    let r = r.map_err(|e| Error::internal(e.to_string()))?;
                    return Ok(CallToolResult::text(format!(
                        "confirm: {}",
                        field(&r, "confirm")
                    )));
                }
                if arguments.get("then").and_then(Value::as_str) == Some("ask") {
                    let r = cx.elicit("name", form("Name?", "name", "string")).await;
                    let r = r.map_err(|e| Error::internal(e.to_string()))?;
                    return Ok(CallToolResult::text(format!(
                        "gave up; name: {}",
                        field(&r, "name")
                    )));
                }
                tokio::time::sleep(Duration::from_secs(60)).await;
                Ok(CallToolResult::text("gave up; worked"))
            }
            "fail" => Err(Error::internal("the job failed")),
            "tool_error" => Ok(CallToolResult::error("the tool says no")),
            "boom" => panic!("the lab tool panicked"),
            "required" => {
                p.required_ran.fetch_add(1, Ordering::SeqCst);
                Ok(CallToolResult::text("required ran"))
            }
            "explicit" => {
                let r = cx
                    .elicit("user_name", form("Your name?", "name", "string"))
                    .await;
                let name = field(&r.map_err(|e| Error::internal(e.to_string()))?, "name");
                cx.start_task().await;
                tokio::time::sleep(Duration::from_millis(50)).await;
                Ok(CallToolResult::text(format!(
                    "Hello, {name}! (task {})",
                    cx.task_id().is_some()
                )))
            }
            other => Err(Error::unknown_tool(other)),
        }
    }
}
