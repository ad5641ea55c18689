//! `travel demo`: starts this binary as a stdio MCP server and drives its richest flows like a
//! client would, once at 2026-07-28 and once at 2025-11-25, printing every message: the flight
//! search answered by the client's model and then by the server's fallback, a declined booking,
//! a booking approved in two forms over two rounds (2026-07-28: the `requestState` that carries
//! the first answer into the second round), and the payment completed on the server's page,
//! whose link then refuses a second use. First, at both revisions, it lists the server's skill
//! (`skills/list`) and reads its `SKILL.md` (`resources/read`), checking the bytes against the
//! manifest's SHA-256 digest and size.
//! The "user" and the "model" are scripted. The demo checks every outcome and fails with a
//! non-zero exit status when one is not what it should be.

use rondo_example_travel::web;
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};
use std::collections::VecDeque;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

const MODERN: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";

/// The scripted model's answer: three morning nonstop flights, with reasons.
fn model_picks() -> Value {
    json!({"picks": [
        {"flight_id": "BCN25", "reason": "Leaves Washington at 08:20 nonstop and lands before midnight."},
        {"flight_id": "BCN22", "reason": "The cheapest morning nonstop, from Boston."},
        {"flight_id": "BCN37", "reason": "A morning nonstop from Newark for $1,020."}
    ]})
}

fn search_args() -> Value {
    json!({"destination": "Barcelona", "month": "2027-06", "morning_departure": true, "max_stops": 0})
}

fn traveller() -> Value {
    json!({
        "passenger_name": "Ada Lovelace",
        "date_of_birth": "1985-12-10",
        "hotel_requests": "A quiet room, late check-in",
        "emergency_contact_name": "Charles Babbage",
        "emergency_contact_phone": "+44 20 7946 0958"
    })
}

struct Client {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    next_id: i64,
    /// 2026-07-28: the `_meta` of every request.
    meta: Option<Value>,
    /// The scripted answers, consumed in order: (method, answer).
    script: VecDeque<(&'static str, Value)>,
    /// What the scripted user was shown, in order.
    shown: Vec<String>,
    /// The last page the server sent the user to.
    opened: Option<String>,
}

impl Client {
    fn spawn(meta: Option<Value>) -> Res<Client> {
        let mut child = Command::new(std::env::current_exe()?)
            .env_remove("TRAVEL_FLIGHT_FALLBACK")
            .env_remove("TRAVEL_MODEL_PROVIDER")
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
            script: VecDeque::new(),
            shown: Vec::new(),
            opened: None,
        })
    }

    fn expect_answers(&mut self, answers: impl IntoIterator<Item = (&'static str, Value)>) {
        self.script.extend(answers);
    }

    async fn send(&mut self, msg: Value) -> Res<()> {
        println!("  client -> {}", short(&msg));
        self.stdin.write_all(format!("{msg}\n").as_bytes()).await?;
        Ok(())
    }

    async fn recv(&mut self) -> Res<Value> {
        let line = tokio::time::timeout(Duration::from_secs(30), self.lines.next_line()).await??;
        let msg: Value = serde_json::from_str(&line.ok_or("server closed stdout")?)?;
        println!("  server -> {}", short(&msg));
        Ok(msg)
    }

    /// Sends a request (with `meta` as its `_meta` on 2026-07-28) and returns its result,
    /// answering the server's own requests meanwhile (2025-11-25).
    async fn request_with(
        &mut self,
        method: &str,
        mut params: Value,
        meta: Option<&Value>,
    ) -> Res<Value> {
        if let Some(meta) = meta {
            params["_meta"] = meta.clone();
        }
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await?;
        loop {
            let msg = self.recv().await?;
            if msg.get("method").is_some() && msg.get("id").is_some() {
                let reply = match self.answer(&msg["method"], &msg["params"]).await? {
                    Ok(result) => json!({"jsonrpc": "2.0", "id": msg["id"], "result": result}),
                    Err(error) => json!({"jsonrpc": "2.0", "id": msg["id"], "error": error}),
                };
                self.send(reply).await?;
            } else if msg["id"] == json!(id) {
                return match msg.get("error") {
                    Some(e) => Err(format!("error {e}").into()),
                    None => Ok(msg["result"].clone()),
                };
            }
        }
    }

    async fn request(&mut self, method: &str, params: Value) -> Res<Value> {
        let meta = self.meta.clone();
        self.request_with(method, params, meta.as_ref()).await
    }

    /// `tools/call`, following 2026-07-28 rounds (answering each round's `inputRequests` and
    /// echoing its `requestState`). Returns the result and the number of rounds.
    async fn call_tool(
        &mut self,
        name: &str,
        args: Value,
        meta: Option<&Value>,
    ) -> Res<(Value, u32)> {
        let call = json!({"name": name, "arguments": args});
        let mut result = self.request_with("tools/call", call.clone(), meta).await?;
        let mut rounds = 1;
        while result["resultType"] == "input_required" && rounds < 6 {
            let state = result["requestState"].as_str().unwrap_or_default();
            println!(
                "  (round {rounds} ends: requestState of {} bytes carries it to the next: {}…)",
                state.len(),
                &state[..state.len().min(32)]
            );
            let mut responses = serde_json::Map::new();
            for (key, req) in result["inputRequests"].as_object().into_iter().flatten() {
                if let Ok(answer) = self.answer(&req["method"], &req["params"]).await? {
                    responses.insert(key.clone(), answer);
                }
            }
            let mut retry = call.clone();
            retry["inputResponses"] = Value::Object(responses);
            retry["requestState"] = result["requestState"].clone();
            result = self.request_with("tools/call", retry, meta).await?;
            rounds += 1;
        }
        println!("  => {}", text(&result));
        Ok((result, rounds))
    }

    /// The scripted user and model. A URL-mode question: the user opens the page and, a moment
    /// later, presses "Pay" there, while the server waits for the payment.
    async fn answer(&mut self, method: &Value, params: &Value) -> Res<Result<Value, Value>> {
        let method = method.as_str().unwrap_or_default();
        let at = self
            .script
            .iter()
            .position(|(m, _)| *m == method)
            .ok_or_else(|| {
                format!("demo: the server asked `{method}`, which the script did not expect")
            })?;
        let (_, answer) = self.script.remove(at).ok_or("script")?;
        let shown = match method {
            "elicitation/create" => params["message"].as_str().unwrap_or_default().to_owned(),
            "sampling/createMessage" => "(the model is asked to pick flights)".to_owned(),
            other => other.to_owned(),
        };
        println!("  [user sees] {shown}");
        self.shown.push(shown);
        if let Some(url) = params["url"].as_str() {
            let (status, page) = web::get(url, 64 * 1024).await?;
            expect(
                "the payment page",
                status == 200 && page.contains("<button id=\"pay\"") && page.contains("/complete"),
                true,
            )?;
            println!("  [user opens] {url} and presses \"Pay\" there in a moment");
            self.opened = Some(url.to_owned());
            let complete = format!("{url}/complete");
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(1500)).await;
                match web::post_json(&complete, "{}", 4096).await {
                    Ok((_, body)) => println!("  [payment page] {body}"),
                    Err(e) => println!("  [payment page] failed: {e}"),
                }
            });
        }
        Ok(match answer.get("error") {
            Some(e) => Err(e.clone()),
            None => Ok(answer),
        })
    }

    /// Closes stdin; the server must exit, successfully.
    async fn close(mut self) -> Res<Vec<String>> {
        drop(self.stdin);
        let status = tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await??;
        println!("  (stdin closed; server exited with {status})");
        expect("the server's exit", status.success(), true)?;
        Ok(self.shown)
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

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

fn picked(result: &Value) -> (String, Vec<String>) {
    let s = &result["structuredContent"];
    let ids = s["picks"].as_array().into_iter().flatten();
    let ids = ids
        .filter_map(|p| p["flight"]["id"].as_str().map(str::to_owned))
        .collect();
    (s["chosen_by"].as_str().unwrap_or_default().to_owned(), ids)
}

/// One line per message: the `_meta` of modern messages elided, long messages cut.
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
    if s.chars().count() > 200 {
        format!("{}…", s.chars().take(200).collect::<String>())
    } else {
        s
    }
}

fn accept(content: Value) -> (&'static str, Value) {
    (
        "elicitation/create",
        json!({"action": "accept", "content": content}),
    )
}

fn sampled(text: &str) -> (&'static str, Value) {
    let reply = json!({"role": "assistant", "content": {"type": "text", "text": text}, "model": "demo-model", "stopReason": "endTurn"});
    ("sampling/createMessage", reply)
}

/// The flows both revisions share, from the flight search to the payment. `fallback` makes the
/// second search go without the model (2026-07-28: a request that does not declare sampling;
/// 2025-11-25: the user rejects the sampling request).
async fn flows(c: &mut Client, fallback: Option<Value>, rejected: bool) -> Res<()> {
    println!("\n-- find_best_flight: the client's model picks");
    c.expect_answers([sampled(&model_picks().to_string())]);
    let (r, _) = c
        .call_tool("find_best_flight", search_args(), c.meta.clone().as_ref())
        .await?;
    expect(
        "the model's picks",
        picked(&r),
        (
            "client_model".into(),
            vec!["BCN25".into(), "BCN22".into(), "BCN37".into()],
        ),
    )?;

    println!("\n-- find_best_flight: no model, so the server's fallback ranks");
    if rejected {
        c.expect_answers([(
            "sampling/createMessage",
            json!({"error": {"code": -1, "message": "User rejected sampling request"}}),
        )]);
    }
    let (r, _) = c
        .call_tool(
            "find_best_flight",
            search_args(),
            fallback.as_ref().or(c.meta.clone().as_ref()),
        )
        .await?;
    expect(
        "the ranking",
        picked(&r),
        (
            "ranking".into(),
            vec!["BCN22".into(), "BCN35".into(), "BCN37".into()],
        ),
    )?;

    println!("\n-- book_trip: the traveller declines");
    c.expect_answers([("elicitation/create", json!({"action": "decline"}))]);
    let (r, _) = c
        .call_tool(
            "book_trip",
            json!({"package_id": "barcelona"}),
            c.meta.clone().as_ref(),
        )
        .await?;
    expect(
        "the declined booking",
        text(&r),
        "The traveller declined the trip; nothing was booked.",
    )?;

    println!("\n-- book_trip: approval with preferences, then the traveller details");
    c.expect_answers([
        accept(json!({"approve": true, "seat": "window", "room_type": "suite", "travel_insurance": true})),
        accept(traveller()),
    ]);
    let (r, rounds) = c
        .call_tool(
            "book_trip",
            json!({"package_id": "barcelona"}),
            c.meta.clone().as_ref(),
        )
        .await?;
    let want_rounds = if c.meta.is_some() { 3 } else { 1 };
    expect("rounds of the booking", rounds, want_rounds)?;
    let booked = text(&r);
    let want = "Booked Barcelona: flights 15 June 2027 to 22 June 2027, Hotel Arts Barcelona (beachfront), 7 nights, $3,000 in total for Ada Lovelace (window seat, suite room, travel insurance): booking trip-1. Pay with pay_for_trip(booking_id: \"trip-1\").";
    expect("the booking", booked, want)?;

    println!("\n-- pay_for_trip: payment on the server's page (URL mode)");
    c.expect_answers([("elicitation/create", json!({"action": "accept"}))]);
    let (r, _) = c
        .call_tool(
            "pay_for_trip",
            json!({"booking_id": "trip-1"}),
            c.meta.clone().as_ref(),
        )
        .await?;
    expect(
        "the payment",
        text(&r),
        "Paid $3,000 for booking trip-1: receipt R-TRIP-1-3000.",
    )?;
    let link = c.opened.take().ok_or("demo: no payment page was opened")?;
    expect(
        "the payment link carries no booking id",
        link.contains("trip-1"),
        false,
    )?;
    let (status, page) = web::get(&link, 64 * 1024).await?;
    println!("  [user opens the link again] {status}: the link was used");
    expect(
        "the used link, opened again",
        (status, page.contains("This payment link has been used")),
        (410, true),
    )?;
    expect("answers left unused", c.script.len(), 0)?;
    Ok(())
}

/// `sha256:` and the hex digest of `bytes`, as a skill manifest writes it.
fn sha256(bytes: &[u8]) -> String {
    let hex: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

/// The Skills extension: the one skill is listed, and its `SKILL.md` reads back with the
/// digest and size the manifest states.
async fn skill(c: &mut Client) -> Res<()> {
    println!("\n-- skills/list, then resources/read of the SKILL.md: how to use these tools");
    let listed = c.request("skills/list", json!({})).await?;
    let skills = listed["skills"]
        .as_array()
        .ok_or("demo: skills/list has no skills")?;
    let names: Vec<&str> = skills
        .iter()
        .filter_map(|s| s["frontmatter"]["name"].as_str())
        .collect();
    expect("the skills listed", names, vec!["plan-a-trip"])?;
    let uri = skills[0]["uri"].as_str().unwrap_or_default().to_owned();
    expect(
        "the skill's URI",
        uri.as_str(),
        "skill://plan-a-trip/SKILL.md",
    )?;
    let mut files = skills[0]["resources"].as_array().into_iter().flatten();
    let manifest = files
        .find(|f| f["uri"] == uri.as_str())
        .ok_or("demo: the manifest does not list the SKILL.md")?
        .clone();
    let read = c.request("resources/read", json!({"uri": uri})).await?;
    let text = read["contents"][0]["text"].as_str().unwrap_or_default();
    let digest = sha256(text.as_bytes());
    expect(
        "the SKILL.md's digest",
        json!(digest),
        manifest["digest"].clone(),
    )?;
    expect(
        "the SKILL.md's size",
        json!(text.len()),
        manifest["size"].clone(),
    )?;
    let heading = text.lines().find(|l| l.starts_with("# ")).unwrap_or("");
    println!(
        "  => {uri} ({heading:?}): {} bytes, {}…, as the manifest states",
        text.len(),
        &digest[..19]
    );
    Ok(())
}

fn modern_meta(caps: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": caps,
        "io.modelcontextprotocol/clientInfo": {"name": "travel-demo", "version": "1.0.0"}
    })
}

async fn modern() -> Res<()> {
    println!(
        "\n== {MODERN}: stateless; questions travel in InputRequiredResult, answers in the retry =="
    );
    let everything = json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}});
    let mut c = Client::spawn(Some(modern_meta(everything)))?;
    let discovered = c.request("server/discover", json!({})).await?;
    expect(
        "supported versions",
        &discovered["supportedVersions"],
        &json!([MODERN]),
    )?;
    skill(&mut c).await?;
    let no_sampling = modern_meta(json!({"elicitation": {"form": {}, "url": {}}}));
    flows(&mut c, Some(no_sampling), false).await?;
    let shown = c.close().await?;
    expect("questions shown", shown.len(), 5)
}

async fn legacy() -> Res<()> {
    println!("\n== {LEGACY}: initialize; the same tools send real requests to the client ==");
    let mut c = Client::spawn(None)?;
    let caps = json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}});
    let init = c
        .request(
            "initialize",
            json!({"protocolVersion": LEGACY, "capabilities": caps,
            "clientInfo": {"name": "travel-demo", "version": "1.0.0"}}),
        )
        .await?;
    expect(
        "negotiated version",
        &init["protocolVersion"],
        &json!(LEGACY),
    )?;
    c.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await?;
    skill(&mut c).await?;
    flows(&mut c, None, true).await?;
    let shown = c.close().await?;
    expect("questions shown", shown.len(), 6)
}

/// Runs both conversations.
pub async fn run() -> Res<()> {
    println!(
        "travel demo: the same tool code (and the same skill, plan-a-trip) serves both protocol revisions."
    );
    modern().await?;
    legacy().await?;
    println!(
        "\ndone: at both revisions the skill read back with its manifest's digest, the model and the fallback picked flights, a declined booking booked nothing, a booking took two forms, and the payment completed on the page through a link that pays once."
    );
    Ok(())
}
