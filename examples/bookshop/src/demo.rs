//! `bookshop demo`: starts this binary as a stdio MCP server and drives it like a client would,
//! printing every message. The "user" is scripted: they approve the order with express delivery.

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
                let answer = answer(&msg["method"], &msg["params"]);
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

    async fn close(mut self) -> Res<()> {
        drop(self.stdin);
        let status = tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await??;
        println!("  (stdin closed; server exited with {status})");
        Ok(())
    }
}

/// The scripted user: approves, wants express delivery.
fn answer(method: &Value, params: &Value) -> Value {
    match method.as_str() {
        Some("elicitation/create") => {
            println!(
                "  [user sees] {}",
                params["message"].as_str().unwrap_or_default()
            );
            json!({"action": "accept", "content": {"approve": true, "delivery": "express"}})
        }
        _ => json!({}),
    }
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
    c.request("server/discover", json!({})).await?;
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
    while result["resultType"] == "input_required" {
        let mut responses = serde_json::Map::new();
        for (key, req) in result["inputRequests"].as_object().into_iter().flatten() {
            responses.insert(key.clone(), answer(&req["method"], &req["params"]));
        }
        let mut retry = call.clone();
        retry["inputResponses"] = Value::Object(responses);
        retry["requestState"] = result["requestState"].clone();
        result = c.request("tools/call", retry).await?;
    }
    println!("  => {}", result["content"][0]["text"]);
    c.close().await
}

async fn legacy() -> Res<()> {
    println!(
        "\n== 2025-11-25: initialize, then the order asks with a real elicitation/create request =="
    );
    let mut c = Client::spawn(None)?;
    c.request(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
               "clientInfo": {"name": "bookshop-demo", "version": "1.0.0"}}),
    )
    .await?;
    c.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await?;
    let call = json!({"name": ORDER, "arguments": {"isbn": "9780262510875", "quantity": 1}});
    let result = c.request("tools/call", call).await?;
    println!("  => {}", result["content"][0]["text"]);
    c.close().await
}

/// Runs both conversations.
pub async fn run() -> Res<()> {
    println!("bookshop demo: the same tool code serves both protocol revisions.");
    modern().await?;
    legacy().await?;
    println!("\ndone.");
    Ok(())
}
