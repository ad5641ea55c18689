//! Hand-written servers (no macros) used by the runtime behaviour tests: `Hand` (a plain tool
//! and a two-round tool) and [`Lab`] (one tool per runtime behaviour under test), plus request
//! builders.

mod lab;
mod tasks;

pub use lab::{Lab, Probe};
pub use tasks::{TaskLab, TaskProbe};

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{ElicitAction, ElicitRequest, ElicitResult, JsonObject};
use serde_json::json;

/// A server with a plain tool (`add`) and a two-round tool (`greet`, asks for the user's name).
pub struct Hand;

fn greet_form() -> ElicitRequest {
    let schema =
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    ElicitRequest::Form {
        message: "What is your name?".into(),
        requested_schema: schema.as_object().cloned().unwrap_or_default(),
    }
}

impl Handler for Hand {
    fn info(&self) -> ServerInfo {
        ServerInfo::new("hand", "1.0.0").with_tools().with_logging()
    }

    async fn list_tools(&self, _cx: &Cx, _cursor: Option<&Cursor>) -> Result<Page<Tool>, Error> {
        let add_schema = json!({
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"]
        });
        Ok(vec![
            Tool::new(
                "add",
                "Adds two integers",
                add_schema.as_object().cloned().unwrap_or_default(),
            ),
            Tool::new(
                "greet",
                "Greets the user by the name they give",
                Tool::no_arguments(),
            ),
            Tool::new("boom", "Panics", Tool::no_arguments()),
        ]
        .into())
    }

    async fn call_tool(
        &self,
        cx: &Cx,
        name: &str,
        args: &JsonObject,
    ) -> Result<CallToolResult, Error> {
        match name {
            "add" => {
                let (Some(a), Some(b)) = (
                    args.get("a").and_then(|v| v.as_i64()),
                    args.get("b").and_then(|v| v.as_i64()),
                ) else {
                    return Ok(CallToolResult::error("`a` and `b` must be integers"));
                };
                Ok(CallToolResult::text((a + b).to_string()))
            }
            "greet" => {
                let text = match cx.elicit("user_name", greet_form()).await {
                    Ok(r) if r.action == ElicitAction::Accept => {
                        let name = r
                            .content
                            .as_ref()
                            .and_then(|c| c.get("name"))
                            .and_then(|v| v.as_str());
                        match name {
                            Some(n) => format!("Hello, {n}!"),
                            None => return Ok(CallToolResult::error("no name given")),
                        }
                    }
                    Ok(r) => format!("No name ({:?}).", r.action),
                    Err(why) => format!("Cannot ask: {why}"),
                };
                Ok(CallToolResult::text(text))
            }
            "boom" => panic!("kaboom"),
            other => Err(Error::unknown_tool(other)),
        }
    }
}

/// A one-field form (`value: string`) with this message.
pub fn text_form(message: &str) -> ElicitRequest {
    let schema = json!({"type": "object", "properties": {"value": {"type": "string"}}, "required": ["value"]});
    ElicitRequest::Form {
        message: message.into(),
        requested_schema: schema.as_object().cloned().unwrap_or_default(),
    }
}

/// The `value` of an accepted form, `<decline>`/`<cancel>` otherwise.
fn form_value(r: &ElicitResult) -> String {
    match r.action {
        ElicitAction::Accept => r
            .content
            .as_ref()
            .and_then(|c| c.get("value"))
            .and_then(|v| v.as_str())
            .unwrap_or("<none>")
            .to_owned(),
        ElicitAction::Decline => "<decline>".into(),
        ElicitAction::Cancel => "<cancel>".into(),
    }
}

/// A short, stable name for an ask failure, for assertions on tool text.
pub fn describe(e: &AskError) -> String {
    match e {
        AskError::Unsupported(c) => format!(
            "unsupported:{}",
            serde_json::to_string(c).unwrap_or_default()
        ),
        AskError::Rejected(e) => format!("rejected:{}", e.code),
        AskError::Invalid(_) => "invalid".into(),
        AskError::Timeout => "timeout".into(),
        AskError::Disconnected => "disconnected".into(),
        AskError::NotInRevision { revision, .. } => format!("not-in:{revision}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Request builders shared by the behaviour tests.
// ---------------------------------------------------------------------------------------------

/// `tools/call` params (the test client adds `_meta`).
pub fn call_params(name: &str, arguments: serde_json::Value) -> serde_json::Value {
    json!({ "name": name, "arguments": arguments })
}

/// `tools/call` retry params carrying `inputResponses` and `requestState` as given.
pub fn retry_params(
    name: &str,
    arguments: serde_json::Value,
    responses: serde_json::Value,
    state: serde_json::Value,
) -> serde_json::Value {
    json!({
        "name": name,
        "arguments": arguments,
        "inputResponses": responses,
        "requestState": state,
    })
}

/// Calls the argument-less tool `name` (first round).
pub async fn call(
    c: &rondo_mcp::testing::TestClient,
    name: &str,
) -> Result<serde_json::Value, rondo_mcp::Error> {
    c.request("tools/call", call_params(name, json!({}))).await
}

/// Retries the argument-less tool `name` with `responses` and `state`.
pub async fn retry(
    c: &rondo_mcp::testing::TestClient,
    name: &str,
    responses: serde_json::Value,
    state: serde_json::Value,
) -> Result<serde_json::Value, rondo_mcp::Error> {
    c.request(
        "tools/call",
        retry_params(name, json!({}), responses, state),
    )
    .await
}

/// An accepted one-field form ([`text_form`]) answer.
pub fn accepted(value: &str) -> serde_json::Value {
    json!({ "action": "accept", "content": { "value": value } })
}

/// An accepted [`Hand`] `greet` answer.
pub fn named(name: &str) -> serde_json::Value {
    json!({ "action": "accept", "content": { "name": name } })
}
