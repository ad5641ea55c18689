//! The shop the fleet's tests serve: an `order` tool that asks for a confirmation and places
//! the order with `Cx::once`, counting what it placed across every instance; the server, a
//! 2026-07-28 client, and the order's two rounds.

use rondo_mcp::prelude::*;
use rondo_mcp::testing::{Script, TestClient};
use rondo_mcp::{Elicit, elicit, toolbox};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// A yes or no to an order.
#[derive(Debug, Elicit)]
struct Confirm {
    /// Order?
    approve: bool,
}

#[elicit(form, fallback = refuse)]
fn confirm() -> Form<Confirm> {
    Form::new("Order one book?")
}

/// What the tools let a test observe: orders placed, across every instance.
#[derive(Clone, Default)]
pub(super) struct Shop {
    pub(super) placed: Arc<AtomicUsize>,
    /// How long placing takes.
    pub(super) slow: Option<Duration>,
    /// Placing fails (and does nothing) while this is set.
    pub(super) failing: Arc<std::sync::atomic::AtomicBool>,
}

#[toolbox]
impl Shop {
    /// Orders a book once the user confirms; the decision is recorded once per flow.
    #[tool(asks = [confirm])]
    async fn order(&self, cx: &Cx) -> Result<String, String> {
        let answer = cx.ask(confirm()).await;
        let outcome = cx
            .once("order", async {
                match answer {
                    Answer::Accept(c) if c.approve => {
                        if let Some(d) = self.slow {
                            tokio::time::sleep(d).await;
                        }
                        if self.failing.load(Ordering::SeqCst) {
                            return Err("the warehouse is closed; nothing was ordered".to_owned());
                        }
                        let n = self.placed.fetch_add(1, Ordering::SeqCst) + 1;
                        Ok(format!("ordered #{n}"))
                    }
                    _ => Ok("declined".to_owned()),
                }
            })
            .await?;
        Ok(outcome)
    }
}

pub(super) fn server(shop: &Shop) -> Server<Router> {
    Server::new(Router::new(ServerInfo::new("shop", "1")).tools(shop.clone()))
}

pub(super) async fn client(server: Server<Router>) -> TestClient {
    TestClient::modern(server)
        .capabilities(ClientCapabilities::with_elicitation_form())
        .script(Script::new())
        .connect()
        .await
        .expect("connects")
}

/// The `requestState` of the order's first round.
pub(super) async fn first_round(c: &TestClient) -> Value {
    let r = c
        .request("tools/call", json!({"name": "order", "arguments": {}}))
        .await
        .unwrap();
    assert_eq!(r["resultType"], "input_required", "{r:#}");
    r["requestState"].clone()
}

pub(super) async fn answer(
    c: &TestClient,
    state: &Value,
    approve: Option<bool>,
) -> Result<Value, Error> {
    let reply = match approve {
        Some(a) => json!({"action": "accept", "content": {"approve": a}}),
        None => json!({"action": "decline"}),
    };
    let params = json!({"name": "order", "arguments": {}, "requestState": state,
                        "inputResponses": {"confirm": reply}});
    c.request("tools/call", params).await
}

pub(super) fn text(r: &Value) -> &str {
    r["content"][0]["text"].as_str().unwrap_or_default()
}
