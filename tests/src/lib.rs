//! Shared helpers of the behaviour tests: official-schema validation of every message a
//! server emits.

use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::{Direction, Frame};
use serde_json::{Value, json};
use std::sync::OnceLock;

fn schema(revision: Revision) -> &'static Value {
    static NEW: OnceLock<Value> = OnceLock::new();
    static OLD: OnceLock<Value> = OnceLock::new();
    let (cell, text) = match revision {
        Revision::V2026_07_28 => (&NEW, include_str!("../schema/2026-07-28/schema.json")),
        Revision::V2025_11_25 => (&OLD, include_str!("../schema/2025-11-25/schema.json")),
    };
    cell.get_or_init(|| serde_json::from_str(text).expect("bundled schema parses"))
}

/// Validates `instance` against `$defs/<def>` of the official schema of `revision`.
pub fn validate_def(revision: Revision, def: &str, instance: &Value) -> Result<(), String> {
    let mut root = schema(revision).clone();
    root["$ref"] = json!(format!("#/$defs/{def}"));
    let validator = jsonschema::validator_for(&root).map_err(|e| format!("schema: {e}"))?;
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("{def}: {}\n{instance:#}", errors.join("; ")))
    }
}

/// The `$defs` type a server-to-client message must satisfy, from its shape and the method of
/// the request it answers.
fn def_for(message: &Value, request_method: Option<&str>) -> Result<Option<&'static str>, String> {
    if message.get("error").is_some() {
        return Ok(Some("JSONRPCErrorResponse"));
    }
    if let Some(m) = message.get("method").and_then(Value::as_str) {
        let def = match (m, message.get("id").is_some()) {
            ("notifications/progress", false) => "ProgressNotification",
            ("notifications/message", false) => "LoggingMessageNotification",
            ("notifications/tools/list_changed", false) => "ToolListChangedNotification",
            ("notifications/prompts/list_changed", false) => "PromptListChangedNotification",
            ("notifications/resources/list_changed", false) => "ResourceListChangedNotification",
            ("notifications/resources/updated", false) => "ResourceUpdatedNotification",
            ("notifications/elicitation/complete", false) => "ElicitationCompleteNotification",
            ("elicitation/create", true) => "ElicitRequest",
            ("sampling/createMessage", true) => "CreateMessageRequest",
            ("roots/list", true) => "ListRootsRequest",
            ("ping", true) => "PingRequest",
            (other, _) => return Err(format!("server sent unexpected method {other}")),
        };
        return Ok(Some(def));
    }
    let result = &message["result"];
    let irr = result.get("resultType").and_then(Value::as_str) == Some("input_required");
    Ok(Some(match request_method {
        _ if irr => "InputRequiredResult",
        Some("initialize") => "InitializeResult",
        Some("server/discover") => "DiscoverResult",
        Some("tools/list") => "ListToolsResult",
        Some("tools/call") => "CallToolResult",
        Some("prompts/list") => "ListPromptsResult",
        Some("prompts/get") => "GetPromptResult",
        Some("resources/list") => "ListResourcesResult",
        Some("resources/templates/list") => "ListResourceTemplatesResult",
        Some("resources/read") => "ReadResourceResult",
        Some("completion/complete") => "CompleteResult",
        Some(_) | None => return Ok(None),
    }))
}

/// Validates every message the server sent in `transcript` against the official schema of
/// `revision`: the JSON-RPC envelope and, where the request is known, the result type.
/// Returns how many messages were checked.
pub fn validate_transcript(revision: Revision, transcript: &[Frame]) -> usize {
    let mut methods = std::collections::HashMap::new();
    let mut checked = 0;
    for f in transcript {
        let m = &f.message;
        match f.direction {
            Direction::Sent => {
                if let (Some(id), Some(method)) =
                    (m.get("id"), m.get("method").and_then(Value::as_str))
                {
                    methods.insert(id.to_string(), method.to_owned());
                }
            }
            Direction::Received => {
                let envelope = if m.get("error").is_some() {
                    "JSONRPCErrorResponse"
                } else if m.get("result").is_some() {
                    "JSONRPCResultResponse"
                } else if m.get("id").is_some() {
                    "JSONRPCRequest"
                } else {
                    "JSONRPCNotification"
                };
                validate_def(revision, envelope, m).unwrap_or_else(|e| panic!("{e}"));
                let method = m
                    .get("id")
                    .and_then(|id| methods.get(&id.to_string()))
                    .map(String::as_str);
                let def = def_for(m, method).unwrap_or_else(|e| panic!("{e}"));
                if let Some(def) = def {
                    let instance =
                        if m.get("result").is_some() && !matches!(def, "JSONRPCErrorResponse") {
                            &m["result"]
                        } else {
                            m
                        };
                    validate_def(revision, def, instance).unwrap_or_else(|e| panic!("{e}"));
                }
                checked += 1;
            }
        }
    }
    checked
}

pub mod servers;
