//! The suite's tools and prompt that ask the client for input: elicitation, sampling and roots.
//! Written against the runtime's ask API (`Cx::elicit`, `Cx::sample`, `Cx::list_roots`); the
//! same code answers `InputRequiredResult` on 2026-07-28 and sends real requests on 2025-11-25.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{CreateMessageRequest, ElicitRequest, ElicitResult, JsonObject};
use rondo_mcp::{AskError, prompt, tool};
use serde_json::{Value, json};

fn form(message: &str, schema: Value) -> ElicitRequest {
    ElicitRequest::Form {
        message: message.into(),
        requested_schema: schema.as_object().cloned().unwrap_or_default(),
    }
}

fn text_field(name: &str) -> Value {
    json!({"type": "object", "properties": {name: {"type": "string"}}, "required": [name]})
}

fn field<'a>(r: &'a ElicitResult, name: &str) -> Option<&'a str> {
    r.content
        .as_ref()
        .and_then(|c: &JsonObject| c.get(name))
        .and_then(Value::as_str)
}

/// Asks the user's name (input key `user_name`) and greets them.
#[tool]
async fn test_input_required_result_elicitation(cx: &Cx) -> Result<String, AskError> {
    let r = cx
        .elicit("user_name", form("What is your name?", text_field("name")))
        .await?;
    Ok(format!(
        "Hello, {}!",
        field(&r, "name").unwrap_or("stranger")
    ))
}

/// Asks the client's model for the capital of France.
#[tool]
async fn test_input_required_result_sampling(cx: &Cx) -> Result<String, AskError> {
    let r = cx
        .sample(
            "capital_question",
            CreateMessageRequest::user("What is the capital of France?", 100),
        )
        .await?;
    Ok(format!("Sampled: {}", r.content.text()))
}

/// Asks for the client's roots.
#[tool]
async fn test_input_required_result_list_roots(cx: &Cx) -> Result<String, AskError> {
    let r = cx.list_roots("client_roots").await?;
    Ok(format!("Found {} root(s)", r.roots.len()))
}

/// Asks for a confirmation and carries state between the rounds.
#[tool]
async fn test_input_required_result_request_state(cx: &Cx) -> Result<String, AskError> {
    let schema = json!({"type": "object", "properties": {"ok": {"type": "boolean"}}});
    let r = cx.elicit("confirm", form("Please confirm", schema)).await?;
    Ok(format!("state-ok: confirmed with {:?}", r.action))
}

/// Asks three questions at once.
#[tool]
async fn test_input_required_result_multiple_inputs(cx: &Cx) -> Result<String, AskError> {
    let (name, greeting, roots) = tokio::join!(
        cx.elicit("user_name", form("What is your name?", text_field("name"))),
        cx.sample(
            "greeting",
            CreateMessageRequest::user("Generate a greeting", 50)
        ),
        cx.list_roots("client_roots"),
    );
    let (name, greeting, roots) = (name?, greeting?, roots?);
    Ok(format!(
        "name={}, greeting={}, roots={}",
        field(&name, "name").unwrap_or("?"),
        greeting.content.text(),
        roots.roots.len()
    ))
}

/// Asks two questions, one after the other.
#[tool]
async fn test_input_required_result_multi_round(cx: &Cx) -> Result<String, AskError> {
    let first = cx
        .elicit(
            "step1",
            form("Step 1: What is your name?", text_field("name")),
        )
        .await?;
    let second = cx
        .elicit(
            "step2",
            form("Step 2: What is your favorite color?", text_field("color")),
        )
        .await?;
    Ok(format!(
        "{} likes {}",
        field(&first, "name").unwrap_or("?"),
        field(&second, "color").unwrap_or("?")
    ))
}

/// Asks for a confirmation under integrity-protected state.
#[tool]
async fn test_input_required_result_tampered_state(cx: &Cx) -> Result<String, AskError> {
    let schema = json!({"type": "object", "properties": {"ok": {"type": "boolean"}}});
    cx.elicit("confirm", form("Please confirm", schema)).await?;
    Ok("Confirmed".into())
}

/// Asks only what the client declared: elicitation when it can, sampling when it can.
#[tool]
async fn test_input_required_result_capabilities(cx: &Cx) -> Result<String, String> {
    let (name, model) = tokio::join!(
        cx.elicit("user_name", form("What is your name?", text_field("name"))),
        cx.sample(
            "capital_question",
            CreateMessageRequest::user("What is the capital of France?", 100)
        ),
    );
    match (name, model) {
        (Err(_), Err(_)) => Err("The client declared neither elicitation nor sampling".into()),
        (name, model) => Ok(format!(
            "elicitation: {}, sampling: {}",
            name.map(|r| format!("{:?}", r.action))
                .unwrap_or_else(|e| e.to_string()),
            model
                .map(|r| r.content.text())
                .unwrap_or_else(|e| e.to_string()),
        )),
    }
}

/// A prompt that asks for its context first.
#[prompt]
async fn test_input_required_result_prompt(cx: &Cx) -> Result<String, Error> {
    let r = cx
        .elicit(
            "user_context",
            form("What context should the prompt use?", text_field("context")),
        )
        .await
        .map_err(|e| Error::invalid_params(e.to_string()))?;
    Ok(format!(
        "Write with this context in mind: {}",
        field(&r, "context").unwrap_or("none")
    ))
}

/// Asks the client's model to answer a prompt (2025-11-25 back-channel).
#[tool]
async fn test_sampling(cx: &Cx, prompt: String) -> Result<String, AskError> {
    let r = cx
        .sample("sampling", CreateMessageRequest::user(prompt, 100))
        .await?;
    Ok(format!("LLM response: {}", r.content.text()))
}

/// Asks the user a question (2025-11-25 back-channel).
#[tool]
async fn test_elicitation(cx: &Cx, message: String) -> Result<String, AskError> {
    let schema = json!({"type": "object", "properties": {
        "username": {"type": "string", "description": "Your username"},
        "email": {"type": "string", "format": "email", "description": "Your email address"}
    }, "required": ["username", "email"]});
    let r = cx.elicit("elicitation", form(&message, schema)).await?;
    Ok(format!(
        "User response: action={}, content={}",
        serde_json::to_value(r.action)
            .unwrap_or_default()
            .as_str()
            .unwrap_or("?"),
        Value::Object(r.content.unwrap_or_default())
    ))
}

/// Asks with a form whose fields all have defaults (SEP-1034).
#[tool]
async fn test_elicitation_sep1034_defaults(cx: &Cx) -> Result<String, AskError> {
    let schema = json!({"type": "object", "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "score": {"type": "number", "default": 95.5},
        "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
        "verified": {"type": "boolean", "default": true}
    }, "required": []});
    let r = cx
        .elicit("defaults", form("Please review the defaults", schema))
        .await?;
    Ok(format!(
        "Elicitation completed: action={:?}, content={:?}",
        r.action, r.content
    ))
}

/// Asks with every enum shape (SEP-1330).
#[tool]
async fn test_elicitation_sep1330_enums(cx: &Cx) -> Result<String, AskError> {
    let schema = json!({"type": "object", "properties": {
        "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
        "titledSingle": {"type": "string", "oneOf": [
            {"const": "value1", "title": "First Option"},
            {"const": "value2", "title": "Second Option"},
            {"const": "value3", "title": "Third Option"}]},
        "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
            "enumNames": ["Option One", "Option Two", "Option Three"]},
        "untitledMulti": {"type": "array", "minItems": 1, "maxItems": 3,
            "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
        "titledMulti": {"type": "array", "items": {"anyOf": [
            {"const": "value1", "title": "First Choice"},
            {"const": "value2", "title": "Second Choice"},
            {"const": "value3", "title": "Third Choice"}]}}
    }, "required": []});
    let r = cx
        .elicit("enums", form("Pick some options", schema))
        .await?;
    Ok(format!(
        "Elicitation completed: action={:?}, content={:?}",
        r.action, r.content
    ))
}

/// The asking tools.
pub fn tools() -> rondo_mcp::ToolSet {
    rondo_mcp::tools![
        test_input_required_result_elicitation,
        test_input_required_result_sampling,
        test_input_required_result_list_roots,
        test_input_required_result_request_state,
        test_input_required_result_multiple_inputs,
        test_input_required_result_multi_round,
        test_input_required_result_tampered_state,
        test_input_required_result_capabilities,
        test_sampling,
        test_elicitation,
        test_elicitation_sep1034_defaults,
        test_elicitation_sep1330_enums,
    ]
}

/// The asking prompt.
pub fn prompts() -> rondo_mcp::PromptSet {
    rondo_mcp::prompts![test_input_required_result_prompt]
}
