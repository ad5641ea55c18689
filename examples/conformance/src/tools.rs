//! The suite's tools that need no client input (elicitation, sampling and roots tools arrive
//! with those features).

use crate::content::{PNG, WAV};
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::LoggingLevel;
use rondo_mcp::{ToolSet, tool, tools};
use serde_json::{Map, Value, json};
use std::time::Duration;

/// Returns a simple text response.
#[tool]
async fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Returns an image.
#[tool]
async fn test_image_content() -> Content {
    Content::image(PNG, "image/png")
}

/// Returns audio.
#[tool]
async fn test_audio_content() -> Content {
    Content::audio(WAV, "audio/wav")
}

/// Returns an embedded resource.
#[tool]
async fn test_embedded_resource() -> Content {
    Content::resource(ResourceContents::text(
        "test://embedded-resource",
        "text/plain",
        "This is an embedded resource content.",
    ))
}

/// Returns text, an image and an embedded resource.
#[tool]
async fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Content::image(PNG, "image/png"),
        Content::resource(ResourceContents::text(
            "test://mixed-content-resource",
            "application/json",
            r#"{"test":"data","value":123}"#,
        )),
    ]
}

/// Sends three log notifications while it runs.
#[tool]
async fn test_tool_with_logging(cx: &Cx) -> &'static str {
    for (i, msg) in [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ]
    .iter()
    .enumerate()
    {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        cx.log(LoggingLevel::Info, Some("conformance"), msg).await;
    }
    "Tool with logging executed successfully"
}

/// Always fails, as a tool error the model can read.
#[tool]
async fn test_error_handling() -> Result<String, String> {
    Err("This tool intentionally returns an error for testing".into())
}

/// Reports progress 0, 50, 100 when the request carries a progress token.
#[tool]
async fn test_tool_with_progress(cx: &Cx) -> &'static str {
    for (i, p) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        cx.progress(p, Some(100.0), None).await;
    }
    "Progress test completed"
}

/// Needs the client's sampling capability: without it the call is refused with -32021.
#[tool]
async fn test_missing_capability(cx: &Cx) -> &'static str {
    cx.require(&ClientCapabilities::with_sampling()).await;
    "The client declared sampling"
}

/// Answers on the response stream with no server-to-client request.
#[tool]
async fn test_streaming_elicitation(cx: &Cx) -> &'static str {
    cx.progress(1.0, None, Some("working")).await;
    "Streaming completed without server-to-client requests"
}

/// Logs only when the request opted in with a log level.
#[tool]
async fn test_logging_tool(cx: &Cx) -> &'static str {
    cx.log(LoggingLevel::Info, Some("conformance"), "logging tool ran")
        .await;
    "Logging tool completed"
}

/// Announces that the tool list changed.
#[tool]
async fn test_trigger_tool_change(cx: &Cx) -> &'static str {
    cx.notifier().tools_list_changed();
    "Tool list change announced"
}

/// Announces that the prompt list changed.
#[tool]
async fn test_trigger_prompt_change(cx: &Cx) -> &'static str {
    cx.notifier().prompts_list_changed();
    "Prompt list change announced"
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct HeaderArgs {
    /// A value mirrored in the `Mcp-Param-Value` header.
    #[schemars(extend("x-mcp-header" = "Value"))]
    value: String,
}

/// Echoes a value the client also sends as the `Mcp-Param-Value` header.
#[tool]
async fn test_custom_header(#[args] args: HeaderArgs) -> String {
    format!("Received: {}", args.value)
}

fn json_schema_2020_12() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"$anchor": "addressDef", "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
        "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"}, "email": {"type": "string"}},
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
    })
}

/// Takes arguments described by a JSON Schema 2020-12 document using composition keywords.
#[tool(input_schema = json_schema_2020_12())]
async fn json_schema_2020_12_tool(#[args] args: Map<String, Value>) -> String {
    format!("Received {} argument(s)", args.len())
}

/// Every tool of this example.
pub fn all() -> ToolSet {
    tools![
        test_simple_text,
        test_image_content,
        test_audio_content,
        test_embedded_resource,
        test_multiple_content_types,
        test_tool_with_logging,
        test_error_handling,
        test_tool_with_progress,
        test_missing_capability,
        test_streaming_elicitation,
        test_logging_tool,
        test_trigger_tool_change,
        test_trigger_prompt_change,
        test_custom_header,
        json_schema_2020_12_tool,
    ]
}
