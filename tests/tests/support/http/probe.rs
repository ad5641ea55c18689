//! The probe server of the HTTP tests: plain, progress, `x-mcp-header`, elicitation,
//! cancellation, list changes, a capability gate and the caller's principal.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{HeaderParam, JsonObject};
use serde_json::{Value, json};
use std::borrow::Cow;
use std::sync::{Arc, LazyLock, Mutex};
use tokio::sync::oneshot;

/// Signals when a `hang` or `ask_watched` call's future ends or is dropped.
#[derive(Default, Clone)]
pub struct Dropped(Arc<Mutex<Option<oneshot::Sender<()>>>>);

impl Dropped {
    pub fn arm(&self) -> oneshot::Receiver<()> {
        let (tx, rx) = oneshot::channel();
        *self.0.lock().unwrap() = Some(tx);
        rx
    }
}

struct OnDrop(Dropped);
impl Drop for OnDrop {
    fn drop(&mut self) {
        if let Some(tx) = self.0.0.lock().unwrap().take() {
            let _ = tx.send(());
        }
    }
}

/// Tools for the transport tests: plain, progress, `x-mcp-header`, elicitation, cancellation,
/// list changes, a capability gate and the caller's principal.
#[derive(Default)]
pub struct Probe {
    pub dropped: Dropped,
}

fn schema(v: Value) -> JsonObject {
    v.as_object().cloned().unwrap_or_default()
}

/// The `region` tool's arguments, two of them mirrored in `Mcp-Param-*` headers.
fn region_schema() -> JsonObject {
    schema(json!({"type": "object", "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"},
        "count": {"type": "integer", "x-mcp-header": "Count"}}}))
}

impl Handler for Probe {
    fn info(&self) -> ServerInfo {
        ServerInfo::new("probe", "1.0.0")
            .with_tools_list_changed()
            .with_prompts()
    }

    fn header_params(&self, name: &str) -> Cow<'_, [HeaderParam]> {
        static REGION: LazyLock<Vec<HeaderParam>> =
            LazyLock::new(|| HeaderParam::of(&Tool::new("region", "", region_schema())));
        Cow::Borrowed(if name == "region" { &REGION } else { &[] })
    }

    async fn list_tools(&self, _cx: &Cx, _cursor: Option<&Cursor>) -> Result<Page<Tool>, Error> {
        let ints = json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}});
        let none = Tool::no_arguments;
        Ok(vec![
            Tool::new("add", "Adds two integers", schema(ints)),
            Tool::new("progress", "Reports progress three times", none()),
            Tool::new("region", "Echoes its routed region", region_schema()),
            Tool::new("greet", "Asks for a name", none()),
            Tool::new("hang", "Reports once, then never finishes", none()),
            Tool::new(
                "ask_watched",
                "Asks a form; signals when its future ends",
                none(),
            ),
            Tool::new("change_tools", "Announces a tool list change", none()),
            Tool::new("needs_sampling", "Requires sampling", none()),
            Tool::new("whoami", "The caller's principal", none()),
        ]
        .into())
    }

    async fn call_tool(
        &self,
        cx: &Cx,
        name: &str,
        args: &JsonObject,
    ) -> Result<CallToolResult, Error> {
        let text = match name {
            "add" => {
                let n = |k: &str| args.get(k).and_then(Value::as_i64).unwrap_or(0);
                (n("a") + n("b")).to_string()
            }
            "progress" => {
                for i in 1..=3 {
                    cx.progress(f64::from(i), Some(3.0), None).await;
                }
                "done".into()
            }
            "region" => format!("{}", args.get("region").unwrap_or(&Value::Null)),
            "ask_watched" => {
                let _armed = OnDrop(self.dropped.clone());
                let form = rondo_mcp::protocol::ElicitRequest::Form {
                    message: "Anything?".into(),
                    requested_schema: schema(json!({"type": "object", "properties": {}})),
                };
                match cx.elicit("anything", form).await {
                    Ok(_) => "answered".into(),
                    Err(why) => format!("Cannot ask: {why}"),
                }
            }
            "greet" => {
                let form = rondo_mcp::protocol::ElicitRequest::Form {
                    message: "What is your name?".into(),
                    requested_schema: schema(json!({"type": "object",
                        "properties": {"name": {"type": "string"}}, "required": ["name"]})),
                };
                match cx.elicit("user_name", form).await {
                    Ok(r) => format!(
                        "Hello, {}!",
                        r.content
                            .as_ref()
                            .and_then(|c| c.get("name"))
                            .and_then(Value::as_str)
                            .unwrap_or("?")
                    ),
                    Err(why) => format!("Cannot ask: {why}"),
                }
            }
            "hang" => {
                let _armed = OnDrop(self.dropped.clone());
                cx.progress(1.0, None, None).await;
                let never: std::convert::Infallible = std::future::pending().await;
                match never {}
            }
            "change_tools" => {
                cx.notifier().prompts_list_changed();
                cx.notifier().tools_list_changed();
                "announced".into()
            }
            "needs_sampling" => {
                cx.require(&ClientCapabilities::with_sampling()).await;
                "sampled".into()
            }
            "whoami" => cx
                .principal()
                .map_or("anonymous".into(), |p| p.id().to_owned()),
            other => return Err(Error::unknown_tool(other)),
        };
        Ok(CallToolResult::text(text))
    }
}
