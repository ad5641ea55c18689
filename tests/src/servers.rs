//! Hand-written servers (no macros) used by the runtime behaviour tests: `Hand` (a plain tool
//! and a two-round tool) and `Lab` (one tool per runtime behaviour under test), plus request
//! builders.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{
    CreateMessageRequest, ElicitAction, ElicitRequest, GetPromptResult, JsonObject, LoggingLevel,
    PromptMessage, ReadResourceResult, Resource, ResourceContents,
};
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::{Barrier, Notify};

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

// ---------------------------------------------------------------------------------------------
// `Lab`: one tool per runtime behaviour the behaviour tests exercise.
// ---------------------------------------------------------------------------------------------

/// What a [`Lab`] server lets a test observe from inside its handlers.
#[derive(Debug)]
pub struct Probe {
    /// How many times the memoised lookup of `memo` actually ran.
    pub memo_runs: AtomicUsize,
    /// How many times a handler future of `slow` was dropped.
    pub slow_dropped: AtomicUsize,
    /// Notified (one permit) each time `slow` starts.
    pub slow_started: Notify,
    /// Notified (one permit) each time a `slow` future is dropped.
    pub slow_dropped_notify: Notify,
    /// `rendezvous` completes only when two calls wait on it at the same time.
    pub rendezvous: Barrier,
}

impl Default for Probe {
    fn default() -> Self {
        Probe {
            memo_runs: AtomicUsize::new(0),
            slow_dropped: AtomicUsize::new(0),
            slow_started: Notify::new(),
            slow_dropped_notify: Notify::new(),
            rendezvous: Barrier::new(2),
        }
    }
}

/// A server with one tool per behaviour under test. See the tool descriptions in `list_tools`.
#[derive(Clone, Default)]
pub struct Lab {
    /// Shared with the test.
    pub probe: Arc<Probe>,
}

impl Lab {
    /// A lab with a fresh probe.
    pub fn new() -> Self {
        Lab::default()
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
fn form_value(r: &rondo_mcp::protocol::ElicitResult) -> String {
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
    }
}

/// Drops into the probe when a `slow` handler future is dropped.
struct DropGuard(Arc<Probe>);

impl Drop for DropGuard {
    fn drop(&mut self) {
        self.0.slow_dropped.fetch_add(1, Ordering::SeqCst);
        self.0.slow_dropped_notify.notify_one();
    }
}

const LAB_TOOLS: &[(&str, &str)] = &[
    ("steps", "Asks `step1`, then `step2`, one after the other"),
    ("pair", "Asks `left` and `right` at once (join)"),
    ("endless", "Asks a question whose answers it never accepts"),
    (
        "memo",
        "Memoises a counted lookup, then asks `step1` and `step2`",
    ),
    ("big", "Memoises `bytes` bytes, then asks `step1`"),
    ("echo", "Asks `confirm`, then echoes its arguments"),
    ("url", "Asks for a URL-mode elicitation"),
    ("sample", "Asks the client's model (no tools)"),
    ("sample_tools", "Asks the client's model with tools"),
    ("roots", "Asks for the client's roots"),
    (
        "mixed",
        "Asks `confirm` (form) and `haiku` (sampling) at once",
    ),
    (
        "collide",
        "Asks two different questions under one key `pick` at once",
    ),
    ("twice", "Asks the same question `same` twice at once"),
    ("needs_sampling", "Requires the sampling capability"),
    ("chatty", "Reports progress and logs at four levels"),
    ("slow", "Never finishes by itself"),
    (
        "rendezvous",
        "Finishes once two calls are in flight together",
    ),
];

impl Handler for Lab {
    fn info(&self) -> ServerInfo {
        ServerInfo::new("lab", "1.0.0")
            .with_tools()
            .with_prompts()
            .with_resources()
            .with_logging()
    }

    async fn list_tools(&self, _cx: &Cx) -> Result<Vec<Tool>, Error> {
        let open = json!({"type": "object"});
        Ok(LAB_TOOLS
            .iter()
            .map(|(name, d)| Tool::new(*name, *d, open.as_object().cloned().unwrap_or_default()))
            .collect())
    }

    async fn call_tool(
        &self,
        cx: &Cx,
        name: &str,
        args: JsonObject,
    ) -> Result<CallToolResult, Error> {
        let probe = &self.probe;
        let text = match name {
            "steps" => {
                let one = cx.elicit("step1", text_form("First?")).await;
                let one = one.map(|r| form_value(&r)).unwrap_or_else(|e| describe(&e));
                let two = cx.elicit("step2", text_form("Second?")).await;
                let two = two.map(|r| form_value(&r)).unwrap_or_else(|e| describe(&e));
                format!("step1={one} step2={two} round={}", cx.round())
            }
            "pair" => {
                let (l, r) = tokio::join!(
                    cx.elicit("left", text_form("Left?")),
                    cx.elicit("right", text_form("Right?"))
                );
                let l = l.map(|r| form_value(&r)).unwrap_or_else(|e| describe(&e));
                let r = r.map(|r| form_value(&r)).unwrap_or_else(|e| describe(&e));
                format!("left={l} right={r}")
            }
            "endless" => {
                let r = cx
                    .ask_raw(
                        "again",
                        rondo_mcp::protocol::InputRequest::Elicit(text_form("Again?")),
                        |_| Err::<(), _>("never good enough".to_owned()),
                    )
                    .await;
                format!("endless ended: {r:?}")
            }
            "memo" => {
                let looked_up = cx
                    .memo("lookup", async {
                        let n = probe.memo_runs.fetch_add(1, Ordering::SeqCst) + 1;
                        Ok::<_, Error>(format!("value-{n}"))
                    })
                    .await?;
                let one = cx.elicit("step1", text_form("First?")).await;
                let one = one.map(|r| form_value(&r)).unwrap_or_else(|e| describe(&e));
                let two = cx.elicit("step2", text_form("Second?")).await;
                let two = two.map(|r| form_value(&r)).unwrap_or_else(|e| describe(&e));
                format!("memo={looked_up} step1={one} step2={two}")
            }
            "big" => {
                let bytes = args.get("bytes").and_then(|v| v.as_u64()).unwrap_or(0) as usize;
                let blob = cx
                    .memo("blob", async { Ok::<_, Error>("x".repeat(bytes)) })
                    .await?;
                let one = cx.elicit("step1", text_form("First?")).await;
                let one = one.map(|r| form_value(&r)).unwrap_or_else(|e| describe(&e));
                format!("blob={} step1={one}", blob.len())
            }
            "echo" => {
                let ok = cx
                    .elicit("confirm", text_form("Echo these arguments?"))
                    .await;
                let ok = ok.map(|r| form_value(&r)).unwrap_or_else(|e| describe(&e));
                format!("confirm={ok} args={}", serde_json::Value::Object(args))
            }
            "url" => {
                let req = ElicitRequest::Url {
                    message: "Sign in to the example service".into(),
                    url: "https://example.com/connect".into(),
                    elicitation_id: None,
                };
                match cx.elicit("connect", req).await {
                    Ok(r) => format!("url={:?}", r.action),
                    Err(e) => describe(&e),
                }
            }
            "sample" => match cx
                .sample("haiku", CreateMessageRequest::user("Write a haiku", 50))
                .await
            {
                Ok(r) => format!("model said: {}", r.content.text()),
                Err(e) => describe(&e),
            },
            "sample_tools" => {
                let mut req = CreateMessageRequest::user("What is the weather?", 50);
                req.tools = Some(vec![Tool::new(
                    "weather",
                    "Weather for a city",
                    Tool::no_arguments(),
                )]);
                match cx.sample("with_tools", req).await {
                    Ok(r) => format!("model said: {}", r.content.text()),
                    Err(e) => describe(&e),
                }
            }
            "roots" => match cx.list_roots("roots").await {
                Ok(r) => {
                    let uris: Vec<&str> = r.roots.iter().map(|r| r.uri.as_str()).collect();
                    format!("roots={}", uris.join(","))
                }
                Err(e) => describe(&e),
            },
            "mixed" => {
                let (e, s) = tokio::join!(
                    cx.elicit("confirm", text_form("Go ahead?")),
                    cx.sample("haiku", CreateMessageRequest::user("Write a haiku", 50))
                );
                let e = e.map(|r| form_value(&r)).unwrap_or_else(|e| describe(&e));
                let s = s.map(|r| r.content.text()).unwrap_or_else(|e| describe(&e));
                format!("confirm={e} haiku={s}")
            }
            "collide" => {
                let (colour, size) = tokio::join!(
                    cx.elicit("pick", text_form("Pick a colour")),
                    cx.elicit("pick", text_form("Pick a size"))
                );
                let colour = colour
                    .map(|r| form_value(&r))
                    .unwrap_or_else(|e| describe(&e));
                let size = size
                    .map(|r| form_value(&r))
                    .unwrap_or_else(|e| describe(&e));
                format!("colour={colour} size={size}")
            }
            "twice" => {
                let (a, b) = tokio::join!(
                    cx.elicit("same", text_form("Same?")),
                    cx.elicit("same", text_form("Same?"))
                );
                let a = a.map(|r| form_value(&r)).unwrap_or_else(|e| describe(&e));
                let b = b.map(|r| form_value(&r)).unwrap_or_else(|e| describe(&e));
                format!("a={a} b={b}")
            }
            "needs_sampling" => {
                cx.require(&ClientCapabilities::with_sampling()).await;
                "ran".to_owned()
            }
            "chatty" => {
                cx.progress(1.0, Some(2.0), Some("half")).await;
                for level in [
                    LoggingLevel::Debug,
                    LoggingLevel::Info,
                    LoggingLevel::Warning,
                    LoggingLevel::Error,
                ] {
                    cx.log(level, Some("lab"), json!({"level": level})).await;
                }
                cx.progress(2.0, Some(2.0), None).await;
                "done".to_owned()
            }
            "slow" => {
                let _guard = DropGuard(probe.clone());
                probe.slow_started.notify_one();
                std::future::pending::<()>().await;
                unreachable!("`slow` never finishes")
            }
            "rendezvous" => {
                probe.rendezvous.wait().await;
                "met".to_owned()
            }
            other => return Err(Error::unknown_tool(other)),
        };
        Ok(CallToolResult::text(text))
    }

    async fn list_prompts(&self, _cx: &Cx) -> Result<Vec<Prompt>, Error> {
        Ok(vec![Prompt::new("greeting", "Asks who to greet")])
    }

    async fn get_prompt(
        &self,
        cx: &Cx,
        name: &str,
        _args: JsonObject,
    ) -> Result<GetPromptResult, Error> {
        if name != "greeting" {
            return Err(Error::invalid_params(format!("Unknown prompt: {name}")));
        }
        let who = cx.elicit("who", text_form("Who should be greeted?")).await;
        let who = who.map(|r| form_value(&r)).unwrap_or_else(|e| describe(&e));
        Ok(GetPromptResult {
            description: None,
            messages: vec![PromptMessage::user(Content::text(format!("Greet {who}")))],
        })
    }

    async fn list_resources(&self, _cx: &Cx) -> Result<Vec<Resource>, Error> {
        Ok(vec![Resource::new("lab://secret", "secret")])
    }

    async fn read_resource(&self, cx: &Cx, uri: &str) -> Result<ReadResourceResult, Error> {
        if uri != "lab://secret" {
            return Err(Error::resource_not_found(uri));
        }
        let ok = cx.elicit("reveal", text_form("Reveal the secret?")).await;
        let ok = ok.map(|r| form_value(&r)).unwrap_or_else(|e| describe(&e));
        Ok(ReadResourceResult {
            contents: vec![ResourceContents::text(
                uri,
                "text/plain",
                format!("reveal={ok}"),
            )],
        })
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
