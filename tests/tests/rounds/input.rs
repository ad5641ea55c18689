//! `inputResponses` and rounds at 2026-07-28: missing or unparseable answers are asked again,
//! malformed ones are `-32602`, sequential questions take one round each, `join!` batches,
//! renderings are deterministic, the state size cap ends a request cleanly,
//! and `Cx::memo` runs its future once per multi-round request.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::code;
use rondo_mcp::testing::{Reply, Script, TestClient, TestClientBuilder};
use rondo_tests::servers::{Hand, Lab, accepted, call, call_params, named, retry, retry_params};
use serde_json::{Value, json};
use std::sync::atomic::Ordering;

const ELICIT: &str = "elicitation/create";

async fn client<H: Handler>(server: Server<H>, script: Script) -> TestClient {
    builder(server, script).connect().await.expect("connects")
}

fn builder<H: Handler>(server: Server<H>, script: Script) -> TestClientBuilder<H> {
    TestClient::modern(server)
        .capabilities(ClientCapabilities::with_elicitation_form())
        .script(script)
        .max_rounds(32)
}

/// A client that sends ill-shaped `inputResponses` on purpose.
async fn sloppy_client<H: Handler>(server: Server<H>) -> TestClient {
    builder(server, Script::new())
        .skip_validation_of(
            "CallToolRequest",
            "sends ill-shaped inputResponses on purpose",
        )
        .connect()
        .await
        .expect("connects")
}

/// The server's results to `tools/call` requests, in order.
fn results(c: &TestClient) -> Vec<Value> {
    c.transcript()
        .into_iter()
        .filter(|f| f.direction == rondo_mcp::testing::Direction::Received)
        .filter_map(|f| f.message.get("result").cloned())
        .collect()
}

fn keys(irr: &Value) -> Vec<String> {
    irr["inputRequests"]
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_missing_answer_is_asked_again_not_an_error() {
    let c = client(Server::new(Hand), Script::new()).await;
    let first = call(&c, "greet").await.unwrap();
    let again = retry(
        &c,
        "greet",
        json!({"username": named("Ada")}),
        first["requestState"].clone(),
    )
    .await
    .expect("a fresh InputRequiredResult, not an error");
    assert_eq!(again["resultType"], "input_required");
    assert_eq!(
        again["inputRequests"], first["inputRequests"],
        "the same question renders identically"
    );
    assert!(again["requestState"].is_string());
    assert_ne!(again["requestState"], first["requestState"]);
    // Nothing in inputResponses at all: asked again as well.
    let empty = retry(&c, "greet", json!({}), again["requestState"].clone())
        .await
        .unwrap();
    assert_eq!(empty["inputRequests"], first["inputRequests"]);
    // The re-issued state works.
    let done = retry(
        &c,
        "greet",
        json!({"user_name": named("Ada")}),
        empty["requestState"].clone(),
    )
    .await
    .unwrap();
    assert_eq!(done["content"][0]["text"], "Hello, Ada!");
}

#[tokio::test]
async fn unknown_extra_answers_are_ignored() {
    let c = client(Server::new(Hand), Script::new()).await;
    let first = call(&c, "greet").await.unwrap();
    let done = retry(
        &c,
        "greet",
        json!({
            "user_name": named("Ada"),
            "not_asked": {"action": "accept", "content": {"x": 1}},
            "roots": {"roots": []},
        }),
        first["requestState"].clone(),
    )
    .await
    .unwrap();
    assert_eq!(done["resultType"], "complete");
    assert_eq!(done["content"][0]["text"], "Hello, Ada!");
}

#[tokio::test]
async fn structurally_invalid_input_responses_are_invalid_params() {
    let c = sloppy_client(Server::new(Hand)).await;
    let first = call(&c, "greet").await.unwrap();
    let state = first["requestState"].clone();
    for bad in [
        Value::Null,
        json!(5),
        json!("user_name"),
        json!([named("Ada")]),
        json!({"user_name": 5}),
        json!({"user_name": null}),
        json!({"user_name": "Ada"}),
        json!({"user_name": named("Ada"), "other": [1]}),
    ] {
        let e = retry(&c, "greet", bad.clone(), state.clone())
            .await
            .expect_err("a JSON-RPC error, never a complete result");
        assert_eq!(e.code, code::INVALID_PARAMS, "inputResponses = {bad}");
    }
}

#[tokio::test]
async fn an_answer_that_does_not_parse_is_asked_again() {
    let c = sloppy_client(Server::new(Hand)).await;
    let first = call(&c, "greet").await.unwrap();
    // Each retry carries the state of the round before (a state is taken once).
    let mut state = first["requestState"].clone();
    for unparseable in [
        json!({"action": "bogus"}),
        json!({"content": {"name": "Ada"}}),
        json!({"action": "accept", "content": "Ada"}),
    ] {
        let again = retry(&c, "greet", json!({ "user_name": unparseable }), state)
            .await
            .expect("asked again, not an error");
        assert_eq!(again["resultType"], "input_required", "{unparseable}");
        // The same form, its message followed by why it is asked again.
        let (was, now) = (
            &first["inputRequests"]["user_name"]["params"],
            &again["inputRequests"]["user_name"]["params"],
        );
        assert_eq!(was["requestedSchema"], now["requestedSchema"]);
        let message = now["message"].as_str().unwrap();
        assert!(
            message.starts_with(
                "What is your name?\n\nAsked again because the answer does not parse: "
            ),
            "{message}"
        );
        state = again["requestState"].clone();
    }
}

#[tokio::test]
async fn decline_and_cancel_are_answers_the_tool_branches_on() {
    for (reply, text) in [
        (Reply::Decline, "No name (Decline)."),
        (Reply::Cancel, "No name (Cancel)."),
    ] {
        let c = client(Server::new(Hand), Script::new().elicit(reply)).await;
        let call = c.call_tool("greet", json!({})).await.unwrap();
        assert_eq!((call.text().as_str(), call.rounds), (text, 2));
    }
}

#[tokio::test]
async fn two_sequential_questions_take_three_requests() {
    let script = Script::new()
        .keyed(ELICIT, "step1", Reply::accept(json!({"value": "one"})))
        .keyed(ELICIT, "step2", Reply::accept(json!({"value": "two"})));
    let c = client(Server::new(Lab::new()), script).await;
    let call = c.call_tool("steps", json!({})).await.unwrap();
    assert_eq!(call.rounds, 3);
    assert_eq!(
        call.text(),
        "step1=one step2=two round=2",
        "round 3 still sees step1's answer, replayed from the state"
    );
    let r = results(&c);
    assert_eq!(r.len(), 3);
    assert_eq!(keys(&r[0]), ["step1"]);
    assert_eq!(
        keys(&r[1]),
        ["step2"],
        "an answered question is not asked again"
    );
    assert_ne!(r[0]["requestState"], r[1]["requestState"]);
    assert_eq!(r[2]["resultType"], "complete");
}

#[tokio::test]
async fn joined_questions_come_in_one_input_required_result() {
    let script = Script::new()
        .keyed(ELICIT, "left", Reply::accept(json!({"value": "L"})))
        .keyed(ELICIT, "right", Reply::accept(json!({"value": "R"})));
    let c = client(Server::new(Lab::new()), script).await;
    let call = c.call_tool("pair", json!({})).await.unwrap();
    assert_eq!((call.text().as_str(), call.rounds), ("left=L right=R", 2));
    let r = results(&c);
    assert_eq!(keys(&r[0]), ["left", "right"]);
}

#[tokio::test]
async fn a_partly_answered_batch_reasks_the_rest_rendered_identically() {
    let c = client(Server::new(Lab::new()), Script::new()).await;
    let first = call(&c, "pair").await.unwrap();
    let second = retry(
        &c,
        "pair",
        json!({"left": accepted("L")}),
        first["requestState"].clone(),
    )
    .await
    .unwrap();
    assert_eq!(keys(&second), ["right"]);
    assert_eq!(
        second["inputRequests"]["right"], first["inputRequests"]["right"],
        "deterministic rendering across rounds"
    );
    let done = retry(
        &c,
        "pair",
        json!({"right": accepted("R")}),
        second["requestState"].clone(),
    )
    .await
    .unwrap();
    assert_eq!(done["content"][0]["text"], "left=L right=R");
}

#[tokio::test]
async fn the_same_round_renders_the_same_requests_every_time() {
    let c = client(Server::new(Lab::new()), Script::new()).await;
    let a = call(&c, "pair").await.unwrap();
    let b = call(&c, "pair").await.unwrap();
    assert_eq!(a["inputRequests"], b["inputRequests"]);
    assert_ne!(a["requestState"], b["requestState"], "fresh nonce per seal");
}

#[tokio::test]
async fn memo_runs_once_across_three_rounds() {
    let lab = Lab::new();
    let probe = lab.probe.clone();
    let script = Script::new()
        .keyed(ELICIT, "step1", Reply::accept(json!({"value": "one"})))
        .keyed(ELICIT, "step2", Reply::accept(json!({"value": "two"})));
    let c = client(Server::new(lab), script).await;
    let call = c.call_tool("memo", json!({})).await.unwrap();
    assert_eq!(call.rounds, 3);
    assert_eq!(call.text(), "memo=value-1 step1=one step2=two");
    assert_eq!(probe.memo_runs.load(Ordering::SeqCst), 1);
    // A new call is a new request: the lookup runs again.
    let again = c.call_tool("memo", json!({})).await.unwrap();
    assert!(again.input_required());
    assert_eq!(probe.memo_runs.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn state_over_the_size_cap_is_an_error_not_a_panic() {
    let c = client(
        Server::new(Lab::new()).max_state_bytes(2048),
        Script::new().keyed(ELICIT, "step1", Reply::accept(json!({"value": "v"}))),
    )
    .await;
    let small = c.call_tool("big", json!({"bytes": 100})).await.unwrap();
    assert_eq!(small.text(), "blob=100 step1=v");
    let e = c
        .request("tools/call", call_params("big", json!({"bytes": 8192})))
        .await
        .expect_err("too much state");
    assert_eq!(e.code, code::INTERNAL_ERROR);
    // Still serving.
    let first = call(&c, "steps").await.unwrap();
    assert_eq!(first["resultType"], "input_required");
}

#[tokio::test]
async fn prompts_and_resources_are_multi_round_too() {
    let script = Script::new()
        .keyed(ELICIT, "who", Reply::accept(json!({"value": "Ada"})))
        .keyed(ELICIT, "reveal", Reply::accept(json!({"value": "yes"})));
    let c = client(Server::new(Lab::new()), script).await;
    let p = c.get_prompt("greeting", json!({})).await.unwrap();
    assert_eq!((p.text().as_str(), p.rounds), ("Greet Ada", 2));
    let r = c.read_resource("lab://secret").await.unwrap();
    assert_eq!(r.rounds, 2);
    assert_eq!(r.result["contents"][0]["text"], "reveal=yes");
    assert!(r.result["ttlMs"].is_u64() && r.result["cacheScope"].is_string());
    let irr = results(&c)
        .into_iter()
        .rfind(|r| r["resultType"] == "input_required")
        .unwrap();
    assert!(
        irr.get("ttlMs").is_none() && irr.get("cacheScope").is_none(),
        "no cache hints on input_required: {irr:#}"
    );
}

#[tokio::test]
async fn one_key_for_two_different_questions_gets_distinct_wire_keys() {
    let c = client(Server::new(Lab::new()), Script::new()).await;
    let first = call(&c, "collide").await.unwrap();
    let asked = first["inputRequests"].as_object().unwrap();
    assert_eq!(asked.len(), 2, "{first:#}");
    let mut responses = serde_json::Map::new();
    for (wire, req) in asked {
        let (key, digest) = wire.split_once('~').expect("disambiguated wire key");
        assert_eq!(key, "pick");
        assert_eq!(digest.len(), 8);
        assert!(digest.chars().all(|c| c.is_ascii_hexdigit()));
        let answer = match req["params"]["message"].as_str().unwrap() {
            "Pick a colour" => "red",
            "Pick a size" => "L",
            other => panic!("unexpected question {other}"),
        };
        responses.insert(wire.clone(), accepted(answer));
    }
    let done = c
        .request(
            "tools/call",
            retry_params(
                "collide",
                json!({}),
                Value::Object(responses),
                first["requestState"].clone(),
            ),
        )
        .await
        .unwrap();
    assert_eq!(done["content"][0]["text"], "colour=red size=L");

    // The same question asked twice in one pass goes out once and answers both.
    let first = call(&c, "twice").await.unwrap();
    assert_eq!(keys(&first), ["same"]);
    let done = retry(
        &c,
        "twice",
        json!({"same": accepted("yes")}),
        first["requestState"].clone(),
    )
    .await
    .unwrap();
    assert_eq!(done["content"][0]["text"], "a=yes b=yes");
}

/// What a client sends is quoted in an error message only in part: a 1 MB `inputResponses`
/// key, tool name or method name gives a short message that still starts with it.
#[tokio::test]
async fn client_strings_are_echoed_truncated() {
    let c = sloppy_client(Server::new(Hand)).await;
    let first = call(&c, "greet").await.unwrap();
    let state = first["requestState"].clone();
    let huge = "k".repeat(1 << 20);
    let short = |e: &Error, what: &str| {
        assert!(e.message.len() < 200, "{what}: {} bytes", e.message.len());
        assert!(e.message.contains("kkkk"), "{what}: {}", e.message);
        assert!(e.message.contains('…'), "{what}: {}", e.message);
    };
    let e = retry(&c, "greet", json!({ huge.clone(): 5 }), state)
        .await
        .expect_err("ill-shaped inputResponses");
    short(&e, "inputResponses key");
    let e = call(&c, &huge).await.expect_err("unknown tool");
    short(&e, "tool name");
    let c = builder(Server::new(Hand), Script::new())
        .skip_validation_of("ClientRequest", "sends an unknown method on purpose")
        .connect()
        .await
        .expect("connects");
    let e = c
        .request(&huge, json!({}))
        .await
        .expect_err("unknown method");
    short(&e, "method name");
}
