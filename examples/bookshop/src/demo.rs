//! `bookshop demo`: starts this binary as a stdio MCP server and drives it like a client would,
//! printing every message. The "user" is scripted: they approve the order with express delivery.
//! The demo checks its own outcome (the question the user saw, the order placed at both
//! revisions, the server's clean exit) and fails with a non-zero exit status otherwise.
//!
//! The client is the runtime's test client over the child's stdio (`TestClient::spawn`), which
//! follows the 2026-07-28 rounds, answers 2025-11-25 requests, bounds every request and the
//! server's exit, and checks every message against the official schema of its revision (a
//! violation or a request without an answer panics, naming the line here).

use rondo_mcp::protocol::{Implementation, Revision};
use rondo_mcp::testing::{Reply, Script, TestClient};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::process::Command;

const ORDER: &str = "order_book";

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// The questions the scripted user was shown, in order.
#[derive(Clone, Default)]
struct Asked(Arc<Mutex<Vec<String>>>);

impl Asked {
    fn push(&self, question: &str) {
        let mut asked = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        asked.push(question.to_owned());
    }
    fn take(&self) -> Vec<String> {
        std::mem::take(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// This binary, started as a server, and a client of it at `revision` declaring `capabilities`,
/// which prints every message. The scripted user approves, with express delivery.
async fn connect(revision: Revision, capabilities: Value, asked: &Asked) -> Res<TestClient> {
    let asked = asked.clone();
    let user = Script::new().otherwise(move |method, params| match method {
        "elicitation/create" => {
            let question = params["message"].as_str().unwrap_or_default();
            println!("  [user sees] {question}");
            asked.push(question);
            Reply::accept(json!({"approve": true, "delivery": "express"}))
        }
        _ => Reply::Raw(json!({})),
    });
    let client = TestClient::spawn(revision, &mut Command::new(std::env::current_exe()?))?
        .capabilities(serde_json::from_value(capabilities)?)
        .client_info(Implementation::new("bookshop-demo", "1.0.0"))
        .script(user)
        .max_rounds(5)
        .echo(|frame| println!("  {frame:.240}"))
        .connect()
        .await?;
    Ok(client)
}

/// Closes stdin; the server must exit, successfully.
async fn close(c: TestClient) -> Res<()> {
    c.close().await?;
    println!("  (stdin closed; the server exited successfully)");
    Ok(())
}

/// Fails the demo unless `got` is what it should be.
fn expect<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) -> Res<()> {
    if got == want {
        Ok(())
    } else {
        Err(format!("demo: {what}: expected {want:?}, got {got:?}").into())
    }
}

async fn modern() -> Res<()> {
    println!("\n== 2026-07-28: stateless, the order asks through an InputRequiredResult ==");
    let asked = Asked::default();
    let forms = json!({"elicitation": {"form": {}}});
    let c = connect(Revision::V2026_07_28, forms, &asked).await?;
    let discovered = c.request("server/discover", json!({})).await?;
    expect(
        "supported versions",
        &discovered["supportedVersions"],
        &json!(["2026-07-28"]),
    )?;
    let hits = c
        .call_tool("search_books", json!({"query": "rust"}))
        .await?;
    let isbn = hits.result["structuredContent"][0]["isbn"]
        .as_str()
        .ok_or("no search hit")?
        .to_owned();
    let order = c
        .call_tool(ORDER, json!({"isbn": isbn, "quantity": 2}))
        .await?;
    println!("  => {:?}", order.text());
    expect("rounds of the order", order.rounds, 2)?;
    expect(
        "the order",
        order.text().as_str(),
        "Ordered 2 x \"The Rust Programming Language\", express delivery.",
    )?;
    close(c).await?;
    expect(
        "what the user was asked",
        asked.take(),
        vec!["Order 2 x \"The Rust Programming Language\" for $79.98?".to_owned()],
    )
}

async fn legacy() -> Res<()> {
    println!(
        "\n== 2025-11-25: initialize, then the order asks with a real elicitation/create request =="
    );
    let asked = Asked::default();
    let c = connect(Revision::V2025_11_25, json!({"elicitation": {}}), &asked).await?;
    expect(
        "negotiated version",
        c.initialize_result().map(|r| &r["protocolVersion"]),
        Some(&json!("2025-11-25")),
    )?;
    let call = json!({"isbn": "9780262510875", "quantity": 1});
    let order = c.call_tool(ORDER, call).await?;
    println!("  => {:?}", order.text());
    expect(
        "the order",
        order.text().as_str(),
        "Ordered 1 x \"Structure and Interpretation of Computer Programs\", express delivery.",
    )?;
    close(c).await?;
    expect(
        "what the user was asked",
        asked.take(),
        vec![
            "Order 1 x \"Structure and Interpretation of Computer Programs\" for $55.00?"
                .to_owned(),
        ],
    )
}

/// Runs both conversations.
pub async fn run() -> Res<()> {
    println!("bookshop demo: the same tool code serves both protocol revisions.");
    modern().await?;
    legacy().await?;
    println!("\ndone: the order was placed at both revisions.");
    Ok(())
}
