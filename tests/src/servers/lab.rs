//! `Lab`: one tool, prompt or resource per runtime behaviour the behaviour tests exercise.

use super::{describe, form_value, text_form};
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{
    CreateMessageRequest, ElicitRequest, GetPromptResult, JsonObject, LoggingLevel, PromptMessage,
    ReadResourceResult, Resource, ResourceContents,
};
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use tokio::sync::{Barrier, Notify};

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
    /// The price `reprice` asks the user to confirm (10 at first).
    pub price: AtomicU64,
    /// Notified (one permit) each time `gate` starts.
    pub gate_started: Notify,
    /// `gate` finishes when this is notified.
    pub gate: Notify,
}

impl Default for Probe {
    fn default() -> Self {
        Probe {
            memo_runs: AtomicUsize::new(0),
            slow_dropped: AtomicUsize::new(0),
            slow_started: Notify::new(),
            slow_dropped_notify: Notify::new(),
            rendezvous: Barrier::new(2),
            price: AtomicU64::new(10),
            gate_started: Notify::new(),
            gate: Notify::new(),
        }
    }
}

/// A server with one tool per behaviour under test. See the tool descriptions in `list_tools`.
#[derive(Clone, Default)]
pub struct Lab {
    /// Shared with the test.
    pub probe: Arc<Probe>,
    /// The cache hints of its cacheable results (the default: `ttlMs: 0`, public).
    pub cache: CacheHint,
}

impl Lab {
    /// A lab with a fresh probe.
    pub fn new() -> Self {
        Lab::default()
    }

    /// A lab whose cacheable results may be cached by anyone for a minute: what a result
    /// built from the client's answers must not inherit.
    pub fn publicly_cached() -> Self {
        Lab {
            cache: CacheHint {
                ttl_ms: 60_000,
                scope: CacheScope::Public,
            },
            ..Lab::default()
        }
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
    ("reprice", "Asks `confirm` to pay the probe's current price"),
    ("gate", "Finishes when the test opens the gate"),
];

impl Handler for Lab {
    fn info(&self) -> ServerInfo {
        ServerInfo::new("lab", "1.0.0")
            .with_tools()
            .with_prompts()
            .with_resources()
            .with_logging()
            .cache(self.cache)
    }

    async fn list_tools(&self, _cx: &Cx, _cursor: Option<&Cursor>) -> Result<Page<Tool>, Error> {
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
        args: &JsonObject,
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
                format!(
                    "confirm={ok} args={}",
                    serde_json::Value::Object(args.clone())
                )
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
            "reprice" => {
                let price = probe.price.load(Ordering::SeqCst);
                let ok = cx
                    .elicit("confirm", text_form(&format!("Pay ${price}?")))
                    .await;
                let ok = ok.map(|r| form_value(&r)).unwrap_or_else(|e| describe(&e));
                format!("paid {price}: {ok}")
            }
            "gate" => {
                probe.gate_started.notify_one();
                probe.gate.notified().await;
                "opened".to_owned()
            }
            other => return Err(Error::unknown_tool(other)),
        };
        Ok(CallToolResult::text(text))
    }

    async fn list_prompts(
        &self,
        _cx: &Cx,
        _cursor: Option<&Cursor>,
    ) -> Result<Page<Prompt>, Error> {
        Ok(vec![Prompt::new("greeting", "Asks who to greet")].into())
    }

    async fn get_prompt(
        &self,
        cx: &Cx,
        name: &str,
        _args: &JsonObject,
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

    async fn list_resources(
        &self,
        _cx: &Cx,
        _cursor: Option<&Cursor>,
    ) -> Result<Page<Resource>, Error> {
        Ok(vec![
            Resource::new("lab://secret", "secret"),
            Resource::new("lab://plain", "plain"),
        ]
        .into())
    }

    async fn read_resource(&self, cx: &Cx, uri: &str) -> Result<ReadResourceResult, Error> {
        if uri == "lab://plain" {
            let text = ResourceContents::text(uri, "text/plain", "plain");
            return Ok(ReadResourceResult {
                contents: vec![text],
            });
        }
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
