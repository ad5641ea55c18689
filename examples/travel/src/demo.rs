//! `travel demo`: starts this binary as a stdio MCP server and drives its richest flows like a
//! client would, once at 2026-07-28, once at 2025-11-25 and once at 2025-06-18 (a client of the
//! official SDKs' 1.x lines, which has forms but no URL mode, so the payment is refused with
//! the capability it needs), printing every message: the flight
//! search answered by the client's model and then by the server's fallback, a declined booking,
//! a booking approved in two forms over two rounds (2026-07-28: the `requestState` that carries
//! the first answer into the second round), and the payment completed on the server's page,
//! whose link then refuses a second use. First, at both revisions, it lists the server's skill
//! (`skills/list`) and reads its `SKILL.md` (`resources/read`), checking the bytes against the
//! manifest's SHA-256 digest and size.
//! The "user" and the "model" are scripted. The demo checks every outcome and fails with a
//! non-zero exit status when one is not what it should be.
//!
//! The client is the runtime's test client over the child's stdio (`TestClient::spawn`), which
//! follows the 2026-07-28 rounds, answers 2025-11-25 requests, bounds every request and the
//! server's exit, and checks every message against the official schema of its revision (a
//! violation or a request without an answer panics, naming the line here).

use rondo_example_travel::web;
use rondo_mcp::protocol::{Error, Implementation, Revision};
use rondo_mcp::testing::{Call, Direction, Frame, Reply, TestClient};
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;
use tokio::process::Command;
use tokio::sync::watch;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

const MODERN: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";
const OLDER: &str = "2025-06-18";

/// How long a request waits for its answer, the user for the payment page, and the server to
/// exit once its input closed.
const BOUND: Duration = Duration::from_secs(30);

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

/// What the scripted user and model answer, and what they saw.
#[derive(Default)]
struct Script {
    /// The answers the next calls expect to give, consumed in order: (method, answer).
    answers: VecDeque<(&'static str, Reply)>,
    /// What the user was shown, in order.
    shown: Vec<String>,
    /// Questions the script had no answer for.
    unexpected: Vec<String>,
}

/// The scripted user and model, shared with the client that asks them.
#[derive(Clone)]
struct User {
    script: Arc<Mutex<Script>>,
    /// The last page the server sent the user to.
    page: watch::Sender<Option<String>>,
}

impl User {
    fn new() -> User {
        User {
            script: Arc::default(),
            page: watch::Sender::new(None),
        }
    }

    fn script(&self) -> MutexGuard<'_, Script> {
        self.script.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn expect_answers(&self, answers: impl IntoIterator<Item = (&'static str, Reply)>) {
        self.script().answers.extend(answers);
    }

    /// The answer to `method` with `params`: the first one expected for it. A URL-mode
    /// question sends the user to the page ([`User::pay_on_page`]).
    fn answer(&self, method: &str, params: &Value) -> Reply {
        let mut script = self.script();
        let Some(at) = script.answers.iter().position(|(m, _)| *m == method) else {
            let why = format!("the server asked `{method}`, which the script did not expect");
            script.unexpected.push(why);
            return Reply::Error(Error::internal("the demo's script did not expect this"));
        };
        let shown = match method {
            "elicitation/create" => params["message"].as_str().unwrap_or_default().to_owned(),
            "sampling/createMessage" => "(the model is asked to pick flights)".to_owned(),
            other => other.to_owned(),
        };
        println!("  [user sees] {shown}");
        script.shown.push(shown);
        if let Some(url) = params["url"].as_str() {
            self.page.send_replace(Some(url.to_owned()));
        }
        script.answers.remove(at).map_or(Reply::Ignore, |(_, a)| a)
    }

    /// Fails the demo when the server asked something the script did not expect.
    fn check(&self) -> Res<()> {
        match self.script().unexpected.first() {
            Some(why) => Err(format!("demo: {why}").into()),
            None => Ok(()),
        }
    }

    /// The user opens the page the server sent them to and, a moment later, presses "Pay"
    /// there, while the server waits for the payment. Returns the page's link.
    async fn pay_on_page(&self) -> Res<String> {
        let mut page = self.page.subscribe();
        let opened = tokio::time::timeout(BOUND, page.wait_for(Option::is_some)).await;
        let url = match opened {
            Ok(Ok(url)) => url.clone().unwrap_or_default(),
            _ => return Err("demo: no payment page was opened".into()),
        };
        let (status, page) = web::get(&url, 64 * 1024).await?;
        expect(
            "the payment page",
            status == 200 && page.contains("<button id=\"pay\"") && page.contains("/complete"),
            true,
        )?;
        println!("  [user opens] {url} and presses \"Pay\" there in a moment");
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let (_, body) = web::post_json(&format!("{url}/complete"), "{}", 4096).await?;
        println!("  [payment page] {body}");
        Ok(url)
    }
}

/// This binary, started as a server, and a client of it.
struct Demo {
    client: TestClient,
    user: User,
}

impl Demo {
    /// Starts the server and connects at `revision`, declaring `capabilities`: every message
    /// printed, with a line at the end of each 2026-07-28 round.
    async fn start(revision: Revision, capabilities: Value) -> Res<Demo> {
        let user = User::new();
        let asked = user.clone();
        let script = rondo_mcp::testing::Script::new()
            .otherwise(move |method, params| asked.answer(method, params));
        let mut server = Command::new(std::env::current_exe()?);
        server
            .env_remove("TRAVEL_FLIGHT_FALLBACK")
            .env_remove("TRAVEL_MODEL_PROVIDER");
        let client = TestClient::spawn(revision, &mut server)?
            .capabilities(serde_json::from_value(capabilities)?)
            .client_info(Implementation::new("travel-demo", "1.0.0"))
            .script(script)
            .max_rounds(6)
            .timeout(BOUND)
            .echo(echo())
            .connect()
            .await?;
        Ok(Demo { client, user })
    }

    fn modern(&self) -> bool {
        self.client.revision().is_modern()
    }

    /// `tools/call`, following 2026-07-28 rounds; at 2026-07-28, `capabilities` instead of the
    /// client's own for this call.
    async fn call(&self, name: &str, args: Value, capabilities: Option<&Value>) -> Res<Call> {
        let mut params = json!({"name": name, "arguments": args});
        if let Some(caps) = capabilities {
            params["_meta"] = json!({"io.modelcontextprotocol/clientCapabilities": caps});
        }
        let call = self.client.call("tools/call", params).await?;
        self.user.check()?;
        println!("  => {}", call.text());
        Ok(call)
    }

    /// Closes stdin; the server must exit, successfully. Returns what the user was shown.
    async fn close(self) -> Res<Vec<String>> {
        self.client.close().await?;
        println!("  (stdin closed; the server exited successfully)");
        Ok(std::mem::take(&mut self.user.script().shown))
    }
}

/// Prints a frame, and after each `InputRequiredResult` the round it ends and its state.
fn echo() -> impl Fn(&Frame) + Send + Sync + 'static {
    let round = AtomicU32::new(0);
    move |frame| {
        println!("  {frame}");
        let result = &frame.message["result"];
        if frame.direction != Direction::Received || result.is_null() {
            return;
        }
        if result["resultType"] != "input_required" {
            round.store(0, Ordering::Relaxed);
            return;
        }
        let n = round.fetch_add(1, Ordering::Relaxed) + 1;
        let state = result["requestState"].as_str().unwrap_or_default();
        let head: String = state.chars().take(32).collect();
        println!(
            "  (round {n} ends: requestState of {} bytes carries it to the next: {head}…)",
            state.len()
        );
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

fn picked(call: &Call) -> (String, Vec<String>) {
    let s = &call.result["structuredContent"];
    let ids = s["picks"].as_array().into_iter().flatten();
    let ids = ids
        .filter_map(|p| p["flight"]["id"].as_str().map(str::to_owned))
        .collect();
    (s["chosen_by"].as_str().unwrap_or_default().to_owned(), ids)
}

fn accept(content: Value) -> (&'static str, Reply) {
    ("elicitation/create", Reply::accept(content))
}

fn sampled(text: &str) -> (&'static str, Reply) {
    let reply = json!({"role": "assistant", "content": {"type": "text", "text": text}, "model": "demo-model", "stopReason": "endTurn"});
    ("sampling/createMessage", Reply::Raw(reply))
}

/// The flows every revision shares, from the flight search to the booking. `fallback` makes the
/// second search go without the model (2026-07-28: the capabilities of a request that does not
/// declare sampling; 2025-11-25, `None`: the user rejects the sampling request).
async fn flows(d: &Demo, fallback: Option<Value>) -> Res<()> {
    println!("\n-- find_best_flight: the client's model picks");
    d.user.expect_answers([sampled(&model_picks().to_string())]);
    let r = d.call("find_best_flight", search_args(), None).await?;
    expect(
        "the model's picks",
        picked(&r),
        (
            "client_model".into(),
            vec!["BCN25".into(), "BCN22".into(), "BCN37".into()],
        ),
    )?;

    println!("\n-- find_best_flight: no model, so the server's fallback ranks");
    if fallback.is_none() {
        let rejected = Error::new(-1, "User rejected sampling request");
        d.user
            .expect_answers([("sampling/createMessage", Reply::Error(rejected))]);
    }
    let r = d
        .call("find_best_flight", search_args(), fallback.as_ref())
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
    d.user
        .expect_answers([("elicitation/create", Reply::Decline)]);
    let r = d
        .call("book_trip", json!({"package_id": "barcelona"}), None)
        .await?;
    expect(
        "the declined booking",
        r.text().as_str(),
        "The traveller declined the trip; nothing was booked.",
    )?;

    println!("\n-- book_trip: approval with preferences, then the traveller details");
    d.user.expect_answers([
        accept(json!({"approve": true, "seat": "window", "room_type": "suite", "travel_insurance": true})),
        accept(traveller()),
    ]);
    let r = d
        .call("book_trip", json!({"package_id": "barcelona"}), None)
        .await?;
    let want_rounds = if d.modern() { 3 } else { 1 };
    expect("rounds of the booking", r.rounds, want_rounds)?;
    let want = "Booked Barcelona: flights 15 June 2027 to 22 June 2027, Hotel Arts Barcelona (beachfront), 7 nights, $3,000 in total for Ada Lovelace (window seat, suite room, travel insurance): booking trip-1. Pay with pay_for_trip(booking_id: \"trip-1\").";
    expect("the booking", r.text().as_str(), want)?;
    Ok(())
}

/// The payment on the server's page (URL mode), and the used link opened again.
async fn payment(d: &Demo) -> Res<()> {
    println!("\n-- pay_for_trip: payment on the server's page (URL mode)");
    d.user
        .expect_answers([("elicitation/create", Reply::Accept(None))]);
    let pay = d.call("pay_for_trip", json!({"booking_id": "trip-1"}), None);
    let (r, link) = tokio::try_join!(pay, d.user.pay_on_page())?;
    expect(
        "the payment",
        r.text().as_str(),
        "Paid $3,000 for booking trip-1: receipt R-TRIP-1-3000.",
    )?;
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
    expect("answers left unused", d.user.script().answers.len(), 0)?;
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
async fn skill(c: &TestClient) -> Res<()> {
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

async fn modern() -> Res<()> {
    println!(
        "\n== {MODERN}: stateless; questions travel in InputRequiredResult, answers in the retry =="
    );
    let everything = json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}});
    let d = Demo::start(Revision::V2026_07_28, everything).await?;
    let discovered = d.client.request("server/discover", json!({})).await?;
    expect(
        "supported versions",
        &discovered["supportedVersions"],
        &json!([MODERN]),
    )?;
    skill(&d.client).await?;
    let no_sampling = json!({"elicitation": {"form": {}, "url": {}}});
    flows(&d, Some(no_sampling)).await?;
    payment(&d).await?;
    let shown = d.close().await?;
    expect("questions shown", shown.len(), 5)
}

async fn legacy() -> Res<()> {
    println!("\n== {LEGACY}: initialize; the same tools send real requests to the client ==");
    let caps = json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}});
    let d = Demo::start(Revision::V2025_11_25, caps).await?;
    expect(
        "negotiated version",
        d.client.initialize_result().map(|r| &r["protocolVersion"]),
        Some(&json!(LEGACY)),
    )?;
    skill(&d.client).await?;
    flows(&d, None).await?;
    payment(&d).await?;
    let shown = d.close().await?;
    expect("questions shown", shown.len(), 6)
}

async fn older() -> Res<()> {
    println!("\n== {OLDER}: a client of the official SDKs' 1.x lines; forms, but no URL mode ==");
    let caps = json!({"elicitation": {}, "sampling": {}});
    let d = Demo::start(Revision::V2025_06_18, caps).await?;
    expect(
        "negotiated version",
        d.client.initialize_result().map(|r| &r["protocolVersion"]),
        Some(&json!(OLDER)),
    )?;
    flows(&d, None).await?;
    println!("\n-- pay_for_trip: the payment page needs URL mode, which {OLDER} does not have");
    let params = json!({"name": "pay_for_trip", "arguments": {"booking_id": "trip-1"}});
    let refused = d.client.call("tools/call", params).await;
    let e = refused.err().ok_or("demo: the payment was not refused")?;
    println!("  => error {}: {}", e.code, e.message);
    expect(
        "the refusal names what is missing",
        (e.code, e.data.map(|d| d["requiredCapabilities"].clone())),
        (-32021, Some(json!({"elicitation": {"url": {}}}))),
    )?;
    let shown = d.close().await?;
    expect("questions shown", shown.len(), 5)
}

/// Runs the three conversations.
pub async fn run() -> Res<()> {
    println!(
        "travel demo: the same tool code (and the same skill, plan-a-trip) serves every protocol revision."
    );
    modern().await?;
    legacy().await?;
    older().await?;
    println!(
        "\ndone: at every revision the model and the fallback picked flights, a declined booking booked nothing and a booking took two forms; at 2026-07-28 and 2025-11-25 the skill read back with its manifest's digest and the payment completed on the page through a link that pays once; at 2025-06-18, without URL mode, the payment was refused naming it."
    );
    Ok(())
}
