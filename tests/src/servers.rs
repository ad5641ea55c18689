//! Hand-written servers (no macros) used by the runtime behaviour tests.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{ElicitAction, ElicitRequest, JsonObject};
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

    async fn list_tools(&self, _cx: &Cx) -> Result<Vec<Tool>, Error> {
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
        ])
    }

    async fn call_tool(
        &self,
        cx: &Cx,
        name: &str,
        args: JsonObject,
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
