//! `bookshop demo`: starts this binary as a stdio MCP server and drives it like a client would,
//! printing every message. The "user" is scripted: they approve the order with express delivery.
//! The demo checks its own outcome (the question the user saw, the order placed at both
//! revisions, the server's clean exit) and fails with a non-zero exit status otherwise.

use serde_json::{Value, json};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

const ORDER: &str = "order_book";

struct Client {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    next_id: i64,
    meta: Option<Value>,
    /// The questions the scripted user was shown, in order.
    asked: Vec<String>,
}

type Res<T> = Result<T, Box<dyn std::error::Error>>;

impl Client {
    fn spawn(meta: Option<Value>) -> Res<Client> {
        let mut child = Command::new(std::env::current_exe()?)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        Ok(Client {
            child,
            stdin,
            lines: BufReader::new(stdout).lines(),
            next_id: 1,
            meta,
            asked: Vec::new(),
        })
    }

    async fn send(&mut self, msg: Value) -> Res<()> {
        println!("  client -> {}", short(&msg));
        self.stdin.write_all(format!("{msg}\n").as_bytes()).await?;
        Ok(())
    }

    async fn recv(&mut self) -> Res<Value> {
        let line = tokio::time::timeout(Duration::from_secs(10), self.lines.next_line()).await??;
        let msg: Value = serde_json::from_str(&line.ok_or("server closed stdout")?)?;
        println!("  server -> {}", short(&msg));
        Ok(msg)
    }

    /// Sends a request and returns its result, answering server-to-client requests meanwhile.
    async fn request(&mut self, method: &str, mut params: Value) -> Res<Value> {
        if let Some(meta) = &self.meta {
            params["_meta"] = meta.clone();
        }
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await?;
        loop {
            let msg = self.recv().await?;
            if msg.get("method").is_some() && msg.get("id").is_some() {
                let answer = self.answer(&msg["method"], &msg["params"]);
                self.send(json!({"jsonrpc": "2.0", "id": msg["id"], "result": answer}))
                    .await?;
            } else if msg["id"] == json!(id) {
                return match msg.get("error") {
                    Some(e) => Err(format!("error {e}").into()),
                    None => Ok(msg["result"].clone()),
                };
            }
        }
    }

    /// The scripted user: approves, wants express delivery.
    fn answer(&mut self, method: &Value, params: &Value) -> Value {
        match method.as_str() {
            Some("elicitation/create") => {
                let question = params["message"].as_str().unwrap_or_default();
                println!("  [user sees] {question}");
                self.asked.push(question.to_owned());
                json!({"action": "accept", "content": {"approve": true, "delivery": "express"}})
            }
            _ => json!({}),
        }
    }

    /// Closes stdin; the server must exit, successfully. Returns the questions the user saw.
    async fn close(mut self) -> Res<Vec<String>> {
        drop(self.stdin);
        let status = tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await??;
        println!("  (stdin closed; server exited with {status})");
        expect("the server's exit", status.success(), true)?;
        Ok(self.asked)
    }
}

/// Fails the demo unless `got` is what it should be.
fn expect<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) -> Res<()> {
    if got == want {
        Ok(())
    } else {
        Err(format!("demo: {what}: expected {want:?}, got {got:?}").into())
    }
}

/// The text of a tool result.
fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

/// One line per message for the reader: the `_meta` every modern message carries is elided,
/// and long messages are cut.
fn short(v: &Value) -> String {
    let mut v = v.clone();
    for part in ["params", "result"] {
        if let Some(meta) = v
            .get_mut(part)
            .and_then(Value::as_object_mut)
            .and_then(|o| o.get_mut("_meta"))
        {
            *meta = json!("…");
        }
    }
    let s = v.to_string();
    if s.chars().count() > 240 {
        format!("{}…", s.chars().take(240).collect::<String>())
    } else {
        s
    }
}

async fn modern() -> Res<()> {
    println!("\n== 2026-07-28: stateless, the order asks through an InputRequiredResult ==");
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "bookshop-demo", "version": "1.0.0"}
    });
    let mut c = Client::spawn(Some(meta))?;
    let discovered = c.request("server/discover", json!({})).await?;
    expect(
        "supported versions",
        &discovered["supportedVersions"],
        &json!(["2026-07-28"]),
    )?;
    let hits = c
        .request(
            "tools/call",
            json!({"name": "search_books", "arguments": {"query": "rust"}}),
        )
        .await?;
    let isbn = hits["structuredContent"][0]["isbn"]
        .as_str()
        .ok_or("no search hit")?
        .to_owned();
    let call = json!({"name": ORDER, "arguments": {"isbn": isbn, "quantity": 2}});
    let mut result = c.request("tools/call", call.clone()).await?;
    let mut rounds = 1;
    while result["resultType"] == "input_required" && rounds < 5 {
        let mut responses = serde_json::Map::new();
        for (key, req) in result["inputRequests"].as_object().into_iter().flatten() {
            responses.insert(key.clone(), c.answer(&req["method"], &req["params"]));
        }
        let mut retry = call.clone();
        retry["inputResponses"] = Value::Object(responses);
        retry["requestState"] = result["requestState"].clone();
        result = c.request("tools/call", retry).await?;
        rounds += 1;
    }
    println!("  => {}", result["content"][0]["text"]);
    expect("rounds of the order", rounds, 2)?;
    expect(
        "the order",
        text(&result),
        "Ordered 2 x \"The Rust Programming Language\", express delivery.",
    )?;
    let asked = c.close().await?;
    expect(
        "what the user was asked",
        asked,
        vec!["Order 2 x \"The Rust Programming Language\" for $79.98?".to_owned()],
    )
}

async fn legacy() -> Res<()> {
    println!(
        "\n== 2025-11-25: initialize, then the order asks with a real elicitation/create request =="
    );
    let mut c = Client::spawn(None)?;
    let init = c
        .request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
                   "clientInfo": {"name": "bookshop-demo", "version": "1.0.0"}}),
        )
        .await?;
    expect(
        "negotiated version",
        &init["protocolVersion"],
        &json!("2025-11-25"),
    )?;
    c.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await?;
    let call = json!({"name": ORDER, "arguments": {"isbn": "9780262510875", "quantity": 1}});
    let result = c.request("tools/call", call).await?;
    println!("  => {}", result["content"][0]["text"]);
    expect(
        "the order",
        text(&result),
        "Ordered 1 x \"Structure and Interpretation of Computer Programs\", express delivery.",
    )?;
    let asked = c.close().await?;
    expect(
        "what the user was asked",
        asked,
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
