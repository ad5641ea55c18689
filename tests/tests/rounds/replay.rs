//! A round's answers are taken once, and what a flow may rely on (design §5): the flow id is the
//! same on every round of one call and fresh for every call; the replay guard (on by default)
//! refuses a round sent again with other answers with the frozen `-32602` before the tool runs,
//! serves it again unchanged (the idempotency key), is bounded, and can be replaced or turned
//! off; and a large answer is never a server error: the fields a form does
//! not read are not carried, and answers that are still too large are `-32602` naming the cap.

use rondo_mcp::prelude::*;
use rondo_mcp::state::{GuardError, MemoryReplayGuard, ReplayGuard, RoundUse};
use rondo_mcp::testing::ManualClock;
use rondo_mcp::testing::{Reply, Script, TestClient};
use rondo_mcp::{Elicit, elicit, toolbox};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

const FROZEN: &str = "Invalid or expired requestState";

/// A name.
#[derive(Debug, Elicit)]
struct Name {
    /// Your name
    name: String,
}

/// A colour.
#[derive(Debug, Elicit)]
struct Colour {
    /// Your favourite colour
    colour: String,
}

/// A yes or no to a payment.
#[derive(Debug, Elicit)]
struct Pay {
    /// Pay?
    approve: bool,
}

#[elicit(form, fallback = refuse)]
fn who() -> Form<Name> {
    Form::new("Who are you?")
}

#[elicit(form, fallback = refuse)]
fn colour() -> Form<Colour> {
    Form::new("Which colour?")
}

#[elicit(form, fallback = refuse)]
fn pay(amount: u32) -> Form<Pay> {
    Form::new(format!("Pay ${amount}?"))
}

/// What the tools let a test observe.
#[derive(Default)]
struct Probe {
    /// The flow id every pass of `two_steps` saw, in order.
    flows: Mutex<Vec<String>>,
    /// How many passes of `charge` ran.
    runs: AtomicUsize,
    /// The flow ids `charge` charged.
    charged: Mutex<Vec<String>>,
}

#[derive(Clone, Default)]
struct Bank {
    probe: Arc<Probe>,
}

#[toolbox]
impl Bank {
    /// Asks a name, then a colour.
    #[tool(asks = [who, colour])]
    async fn two_steps(&self, cx: &Cx) -> String {
        self.probe
            .flows
            .lock()
            .unwrap()
            .push(cx.flow_id().to_owned());
        let name = cx.ask(who()).await.ok().map(|n| n.name).unwrap_or_default();
        let colour = cx.ask(colour()).await.ok().map(|c| c.colour);
        format!("{} likes {}", name.len(), colour.unwrap_or_default())
    }

    /// Charges $5 once the user approves.
    #[tool(asks = [pay])]
    async fn charge(&self, cx: &Cx) -> String {
        self.probe.runs.fetch_add(1, Ordering::SeqCst);
        match cx.ask(pay(5)).await {
            Answer::Accept(p) if p.approve => {
                self.probe
                    .charged
                    .lock()
                    .unwrap()
                    .push(cx.flow_id().to_owned());
                "charged".into()
            }
            _ => "not charged".into(),
        }
    }
}

fn server(bank: &Bank) -> Server<Router> {
    Server::new(Router::new(ServerInfo::new("bank", "1")).tools(bank.clone()))
}

async fn modern(server: Server<Router>, script: Script) -> TestClient {
    TestClient::modern(server)
        .capabilities(ClientCapabilities::with_elicitation_form())
        .script(script)
        .connect()
        .await
        .expect("connects")
}

fn call(name: &str) -> Value {
    json!({"name": name, "arguments": {}})
}

/// The `requestState` of `name`'s first round.
async fn first_round(c: &TestClient, name: &str) -> Value {
    let r = c.request("tools/call", call(name)).await.unwrap();
    assert_eq!(r["resultType"], "input_required", "{r:#}");
    r["requestState"].clone()
}

async fn retry(
    c: &TestClient,
    name: &str,
    state: &Value,
    key: &str,
    answer: Value,
) -> Result<Value, Error> {
    let mut params = call(name);
    params["requestState"] = state.clone();
    params["inputResponses"] = json!({ key: answer });
    c.request("tools/call", params).await
}

fn yes() -> Value {
    json!({"action": "accept", "content": {"approve": true}})
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

#[tokio::test]
async fn the_flow_id_is_the_same_on_every_round_of_a_call_and_fresh_for_each_call() {
    let bank = Bank::default();
    let (name, red) = (json!({"name": "Ada"}), json!({"colour": "red"}));
    let mut script = Script::new();
    let mut legacy = Script::new();
    for _ in 0..2 {
        script = script
            .keyed("elicitation/create", "who", Reply::accept(name.clone()))
            .keyed("elicitation/create", "colour", Reply::accept(red.clone()));
        legacy = legacy
            .elicit(Reply::accept(name.clone()))
            .elicit(Reply::accept(red.clone()));
    }
    let c = modern(server(&bank), script).await;
    for _ in 0..2 {
        let done = c.call_tool("two_steps", json!({})).await.unwrap();
        assert_eq!(
            (done.text().as_str(), done.rounds),
            ("3 likes red", 3),
            "{:#}",
            done.result
        );
    }
    let flows = std::mem::take(&mut *bank.probe.flows.lock().unwrap());
    assert_eq!(flows.len(), 6, "{flows:?}");
    assert!(
        flows[..3].iter().all(|f| *f == flows[0]),
        "one id per call: {flows:?}"
    );
    assert!(
        flows[3..].iter().all(|f| *f == flows[3]),
        "one id per call: {flows:?}"
    );
    assert_ne!(flows[0], flows[3], "two calls, two ids");
    assert!(flows[0].len() == 32 && flows[0].bytes().all(|b| b.is_ascii_hexdigit()));
    // 2025-11-25: a call is one request, with its own id.
    let c = TestClient::legacy(server(&bank))
        .capabilities(ClientCapabilities::with_elicitation_form())
        .script(legacy)
        .connect()
        .await
        .unwrap();
    for _ in 0..2 {
        assert_eq!(
            c.call_tool("two_steps", json!({})).await.unwrap().text(),
            "3 likes red"
        );
    }
    let flows = bank.probe.flows.lock().unwrap().clone();
    assert_eq!(flows.len(), 2);
    assert_ne!(flows[0], flows[1]);
}

#[tokio::test]
async fn a_round_sent_again_with_other_answers_is_refused_before_the_tool_runs_and_unchanged_is_served()
 {
    let bank = Bank::default();
    let c = modern(server(&bank), Script::new()).await;
    let state = first_round(&c, "charge").await;
    let done = retry(&c, "charge", &state, "pay", yes()).await.unwrap();
    assert_eq!(done["content"][0]["text"], "charged");
    assert_eq!(bank.probe.runs.load(Ordering::SeqCst), 2);
    for other in [
        json!({"action": "decline"}),
        accept(json!({"approve": false})),
        json!({"action": "accept", "content": {"approve": true}, "extra": 1}),
    ] {
        let e = retry(&c, "charge", &state, "pay", other).await.unwrap_err();
        assert_eq!((e.code, e.message.as_str()), (-32602, FROZEN));
    }
    assert_eq!(
        bank.probe.runs.load(Ordering::SeqCst),
        2,
        "the tool never ran for other answers"
    );
    // The same round unchanged, its members in another order (a client that lost its answer,
    // or was told to try again): served again, from the top. What the tool does once is
    // `cx.once`'s to keep once (`fleet/once.rs`); this tool does not use it, so it charges again
    // under the same flow id, as it would without a guard.
    let same = json!({"content": {"approve": true}, "action": "accept"});
    let again = retry(&c, "charge", &state, "pay", same).await.unwrap();
    assert_eq!(again["content"][0]["text"], "charged");
    assert_eq!(bank.probe.runs.load(Ordering::SeqCst), 3);
    let charged = bank.probe.charged.lock().unwrap().clone();
    assert_eq!((charged.len(), &charged[0]), (2, &charged[1]));
}

#[tokio::test]
async fn a_declined_round_sent_again_with_accept_is_refused() {
    let bank = Bank::default();
    let c = modern(server(&bank), Script::new()).await;
    let state = first_round(&c, "charge").await;
    let no = retry(&c, "charge", &state, "pay", json!({"action": "decline"}))
        .await
        .unwrap();
    assert_eq!(no["content"][0]["text"], "not charged");
    let e = retry(&c, "charge", &state, "pay", yes()).await.unwrap_err();
    assert_eq!((e.code, e.message.as_str()), (-32602, FROZEN));
    assert!(bank.probe.charged.lock().unwrap().is_empty());
}

#[tokio::test]
async fn without_a_guard_a_retry_runs_again_under_the_same_flow_id() {
    let bank = Bank::default();
    let c = modern(server(&bank).without_replay_guard(), Script::new()).await;
    let state = first_round(&c, "charge").await;
    for _ in 0..2 {
        let done = retry(&c, "charge", &state, "pay", yes()).await.unwrap();
        assert_eq!(done["content"][0]["text"], "charged");
    }
    let charged = bank.probe.charged.lock().unwrap().clone();
    assert_eq!(charged.len(), 2, "what the flow id is for: {charged:?}");
    assert_eq!(charged[0], charged[1]);
}

#[tokio::test]
async fn at_its_bound_the_memory_guard_refuses_retries_until_rounds_expire() {
    let bank = Bank::default();
    let clock = ManualClock::new(1_000_000);
    let server = server(&bank)
        .clock(clock.clone())
        .replay_guard(MemoryReplayGuard::new(1));
    let c = modern(server, Script::new()).await;
    let a = first_round(&c, "charge").await;
    retry(&c, "charge", &a, "pay", yes()).await.unwrap();
    clock.advance(Duration::from_secs(300));
    let b = first_round(&c, "charge").await;
    let runs = bank.probe.runs.load(Ordering::SeqCst);
    let full = retry(&c, "charge", &b, "pay", yes()).await.unwrap_err();
    assert_eq!(full.code, -32603);
    assert!(
        full.message.contains("1 answered rounds, its bound"),
        "{}",
        full.message
    );
    assert_eq!(bank.probe.runs.load(Ordering::SeqCst), runs, "nothing ran");
    // `a`'s state expires 600 s after it was sealed: its entry goes, and `b` fits.
    clock.advance(Duration::from_secs(301));
    let done = retry(&c, "charge", &b, "pay", yes()).await.unwrap();
    assert_eq!(done["content"][0]["text"], "charged");
    assert_eq!(bank.probe.charged.lock().unwrap().len(), 2);
}

/// A guard of a fleet's shared store, here unreachable, or a store that saw every round.
struct Store {
    asked: AtomicUsize,
    answer: Result<RoundUse, GuardError>,
}

/// The guard the server holds, sharing the store with the test.
struct Shared(Arc<Store>);

impl ReplayGuard for Shared {
    async fn take(
        &self,
        round: &str,
        fingerprint: &str,
        expires_at: SystemTime,
        now: SystemTime,
    ) -> Result<RoundUse, GuardError> {
        assert!(round.ends_with(".1"), "the flow id and the round: {round}");
        assert_eq!(fingerprint.len(), 32, "{fingerprint}");
        assert_eq!(
            expires_at.duration_since(now).unwrap(),
            Duration::from_secs(600)
        );
        self.0.asked.fetch_add(1, Ordering::SeqCst);
        self.0.answer.clone()
    }
}

#[tokio::test]
async fn a_plugged_guard_decides_and_its_errors_are_the_clients_to_see() {
    for (answer, code, message) in [
        (
            Err(GuardError::new("the replay store is unreachable")),
            -32603,
            "the replay store is unreachable",
        ),
        (Ok(RoundUse::Other), -32602, FROZEN),
    ] {
        let bank = Bank::default();
        let store = Arc::new(Store {
            asked: AtomicUsize::new(0),
            answer,
        });
        let clock = ManualClock::new(5_000);
        let server = server(&bank)
            .clock(clock)
            .replay_guard(Shared(store.clone()));
        let c = modern(server, Script::new()).await;
        let state = first_round(&c, "charge").await;
        assert_eq!(
            store.asked.load(Ordering::SeqCst),
            0,
            "a first round is not a retry"
        );
        let e = retry(&c, "charge", &state, "pay", yes()).await.unwrap_err();
        assert_eq!((e.code, e.message.as_str()), (code, message));
        assert_eq!(store.asked.load(Ordering::SeqCst), 1);
        assert_eq!(
            bank.probe.runs.load(Ordering::SeqCst),
            1,
            "the retry did not run"
        );
    }
}

#[tokio::test]
async fn a_state_that_fails_to_open_does_not_use_up_its_round() {
    let bank = Bank::default();
    let c = modern(server(&bank), Script::new()).await;
    let state = first_round(&c, "charge").await;
    let mut other_tool = call("two_steps");
    other_tool["requestState"] = state.clone();
    let e = c.request("tools/call", other_tool).await.unwrap_err();
    assert_eq!(e.message, FROZEN);
    let done = retry(&c, "charge", &state, "pay", yes()).await.unwrap();
    assert_eq!(done["content"][0]["text"], "charged");
}

#[tokio::test]
async fn a_field_the_form_does_not_read_is_not_carried_to_the_next_round() {
    let bank = Bank::default();
    let c = modern(server(&bank), Script::new()).await;
    let state = first_round(&c, "two_steps").await;
    let padded = accept(json!({"name": "Ada", "padding": "x".repeat(100_000)}));
    let next = retry(&c, "two_steps", &state, "who", padded).await.unwrap();
    assert_eq!(next["resultType"], "input_required", "{next:#}");
    assert!(next["inputRequests"]["colour"].is_object(), "{next:#}");
    let token = next["requestState"].as_str().unwrap();
    assert!(
        token.len() < 2_000,
        "the padding is not carried: {} bytes",
        token.len()
    );
    let done = retry(
        &c,
        "two_steps",
        &next["requestState"],
        "colour",
        accept(json!({"colour": "red"})),
    )
    .await
    .unwrap();
    assert_eq!(done["content"][0]["text"], "3 likes red");
}

#[tokio::test]
async fn answers_too_large_to_carry_are_invalid_params_naming_the_cap() {
    let bank = Bank::default();
    let c = modern(server(&bank), Script::new()).await;
    let state = first_round(&c, "two_steps").await;
    let long = accept(json!({"name": "x".repeat(70_000)}));
    let e = retry(&c, "two_steps", &state, "who", long)
        .await
        .unwrap_err();
    assert_eq!(e.code, -32602, "{e:?}");
    assert!(e.message.contains("at most 65536 bytes"), "{}", e.message);
    // The round was taken; a fresh call goes through.
    let fresh = first_round(&c, "two_steps").await;
    let ok = retry(
        &c,
        "two_steps",
        &fresh,
        "who",
        accept(json!({"name": "Ada"})),
    )
    .await
    .unwrap();
    assert_eq!(ok["resultType"], "input_required");
}
