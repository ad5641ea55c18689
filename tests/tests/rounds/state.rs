//! `requestState` at 2026-07-28: every way a state can be wrong is one frozen `-32602`
//! (pinned as text), a token is read in exactly one spelling, and the ways a state must stay
//! right (reordered arguments, absent, `null` and empty arguments alike, a fleet sharing a key
//! ring, key rotation) work. Raw requests carry hand-made `inputResponses`/`requestState`.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::code;
use rondo_mcp::state::KeyRing;
use rondo_mcp::testing::ManualClock;
use rondo_mcp::testing::TestClient;
use rondo_tests::servers::{Hand, Lab, accepted, call_params, named, retry, retry_params};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::time::Duration;

const OLD: [u8; 32] = [11; 32];
const NEW: [u8; 32] = [22; 32];

/// The message of every rejected `requestState`, as clients see it: frozen.
const FROZEN: &str = "Invalid or expired requestState";

async fn client<H: Handler>(server: Server<H>) -> TestClient {
    TestClient::modern(server)
        .capabilities(ClientCapabilities::with_elicitation_form())
        .connect()
        .await
        .expect("connects")
}

/// A client of the same server (`Server` clones share their key ring) for requests that break
/// the schema on purpose.
async fn sloppy_client<H: Handler>(server: Server<H>, def: &str, why: &str) -> TestClient {
    TestClient::modern(server)
        .capabilities(ClientCapabilities::with_elicitation_form())
        .skip_validation_of(def, why)
        .connect()
        .await
        .expect("connects")
}

/// Round 1 of `name`: must be an `InputRequiredResult`; returns its `requestState`.
async fn first_round(c: &TestClient, name: &str, args: Value) -> Value {
    let r = c
        .request("tools/call", call_params(name, args))
        .await
        .expect("round 1 answers");
    assert_eq!(r["resultType"], "input_required", "{r:#}");
    assert!(r["requestState"].is_string(), "{r:#}");
    r["requestState"].clone()
}

/// Retries `greet` (no arguments) with the answer "Ada" and `state`.
async fn greet_as_ada(c: &TestClient, state: Value) -> Result<Value, Error> {
    let answers = json!({"user_name": named("Ada")});
    retry(c, "greet", answers, state).await
}

fn assert_rejected(outcome: Result<Value, Error>, what: &str) {
    let e = outcome.expect_err(what);
    assert_eq!(e.code, code::INVALID_PARAMS, "{what}: {e:?}");
    assert_eq!(e.message, FROZEN, "{what}: one frozen message");
    assert_eq!(e.data, None, "{what}: no reason leaks to the client");
}

#[tokio::test]
async fn tampered_state_is_one_frozen_invalid_params_error() {
    let server = Server::new(Hand);
    let c = client(server.clone()).await;
    let state = first_round(&c, "greet", json!({})).await;
    let token = state.as_str().unwrap().to_owned();
    let mut flipped_mid = token.clone().into_bytes();
    let mid = flipped_mid.len() / 2;
    flipped_mid[mid] = if flipped_mid[mid] == b'A' { b'B' } else { b'A' };
    let tampered: Vec<(&str, Value)> = vec![
        ("appended", json!(format!("{token}-TAMPERED"))),
        (
            "flipped middle char",
            json!(String::from_utf8(flipped_mid).unwrap()),
        ),
        ("truncated", json!(&token[..token.len() - 4])),
        ("empty string", json!("")),
        ("plain text", json!("not-a-state")),
        ("a leading space", json!(format!(" {token}"))),
    ];
    for (what, bad) in tampered {
        let r = retry(&c, "greet", json!({"user_name": named("Eve")}), bad).await;
        assert_rejected(r, what);
    }
    let why = "sends a requestState that is not a string";
    let sloppy = sloppy_client(server, "CallToolRequest", why).await;
    for (what, bad) in [
        ("a number", json!(42)),
        ("null", Value::Null),
        ("an object", json!({"state": token})),
    ] {
        let r = retry(&sloppy, "greet", json!({"user_name": named("Eve")}), bad).await;
        assert_rejected(r, what);
    }
    // The genuine state still completes: rejections have no side effect on it.
    let ok = greet_as_ada(&c, state).await.unwrap();
    assert_eq!(ok["resultType"], "complete");
    assert_eq!(ok["content"][0]["text"], "Hello, Ada!");
}

/// Retries `big` (which memoised `bytes` bytes and asks `step1`) with `token`.
async fn retry_big(c: &TestClient, bytes: usize, token: &str) -> Result<Value, Error> {
    let params = retry_params(
        "big",
        json!({ "bytes": bytes }),
        json!({"step1": accepted("v")}),
        json!(token),
    );
    c.request("tools/call", params).await
}

/// A token with `pad` (1 or 2) missing padding characters, padded; and with the lowest of the
/// unused bits of its last character set (2 unused bits when `pad` is 1, 4 when 2). A lenient
/// decoder reads the same bytes from both.
fn padded_and_trailing_bit(token: &str, pad: usize) -> [String; 2] {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let last = token.as_bytes()[token.len() - 1];
    let idx = ALPHABET.iter().position(|&c| c == last).expect("base64url");
    assert_eq!(
        idx & 1,
        0,
        "a canonical token leaves its unused bits at zero: {token}"
    );
    let flipped = ALPHABET[idx | 1] as char;
    [
        format!("{token}{}", "=".repeat(pad)),
        format!("{}{flipped}", &token[..token.len() - 1]),
    ]
}

#[tokio::test]
async fn a_token_is_read_in_exactly_one_spelling() {
    let c = client(Server::new(Lab::new())).await;
    // `big` memoises `bytes` bytes into the state: three consecutive sizes give three
    // consecutive sealed lengths, so the tokens end with 0, 2 and 4 unused bits.
    let mut pads = BTreeSet::new();
    for bytes in 0..3 {
        let state = first_round(&c, "big", json!({ "bytes": bytes })).await;
        let token = state.as_str().unwrap();
        let pad = (4 - token.len() % 4) % 4;
        pads.insert(pad);
        if pad > 0 {
            let [padded, trailing] = padded_and_trailing_bit(token, pad);
            assert_rejected(retry_big(&c, bytes, &padded).await, "padded");
            assert_rejected(retry_big(&c, bytes, &trailing).await, "a trailing bit set");
        }
        // The genuine spelling completes: the variants were refused for their spelling alone.
        let done = retry_big(&c, bytes, token).await.unwrap();
        assert_eq!(done["content"][0]["text"], format!("blob={bytes} step1=v"));
    }
    assert_eq!(
        pads,
        BTreeSet::from([0, 1, 2]),
        "every padding length was tried"
    );
    // The standard alphabet instead of the URL-safe one: nonces are random, so seal until a
    // token has both characters that differ between the alphabets.
    let mut token = String::new();
    for _ in 0..64 {
        let state = first_round(&c, "big", json!({ "bytes": 0 })).await;
        token = state.as_str().unwrap().to_owned();
        if token.contains('-') && token.contains('_') {
            break;
        }
    }
    assert!(token.contains('-') && token.contains('_'), "{token}");
    let standard = [token.replace('-', "+"), token.replace('_', "/")];
    for variant in standard {
        assert_rejected(retry_big(&c, 0, &variant).await, "standard alphabet");
    }
    assert_eq!(
        retry_big(&c, 0, &token).await.unwrap()["resultType"],
        "complete"
    );
}

#[tokio::test]
async fn state_of_another_tool_is_rejected() {
    let server = Server::new(Lab::new());
    let c = client(server.clone()).await;
    let steps_state = first_round(&c, "steps", json!({})).await;
    let r = retry(
        &c,
        "pair",
        json!({"left": accepted("l"), "right": accepted("r")}),
        steps_state,
    )
    .await;
    assert_rejected(r, "state of `steps` on `pair`");
    // Nor on another method that may answer input_required, with a target of the same name.
    let prompt = c
        .request("prompts/get", json!({"name": "greeting"}))
        .await
        .unwrap();
    assert_eq!(prompt["resultType"], "input_required");
    let why = "reads the URI `greeting`, the name of a prompt";
    let sloppy = sloppy_client(server, "ReadResourceRequest", why).await;
    let r = sloppy
        .request(
            "resources/read",
            json!({"uri": "greeting", "inputResponses": {"who": accepted("x")}, "requestState": prompt["requestState"]}),
        )
        .await;
    assert_rejected(r, "state of `prompts/get` on `resources/read`");
}

#[tokio::test]
async fn state_is_bound_to_the_arguments_by_canonical_digest() {
    let c = client(Server::new(Lab::new())).await;
    let args = json!({"a": 1, "b": {"x": "one", "y": [1, 2]}});
    let state = first_round(&c, "echo", args.clone()).await;

    let other = json!({"a": 2, "b": {"x": "one", "y": [1, 2]}});
    let r = c
        .request(
            "tools/call",
            retry_params(
                "echo",
                other,
                json!({"confirm": accepted("yes")}),
                state.clone(),
            ),
        )
        .await;
    assert_rejected(r, "other argument values");
    let r = c
        .request(
            "tools/call",
            retry_params(
                "echo",
                json!({"a": 1}),
                json!({"confirm": accepted("yes")}),
                state.clone(),
            ),
        )
        .await;
    assert_rejected(r, "an argument left out");

    // The same arguments with their keys in another order, sent as raw text so the order on
    // the wire really differs, are the same call.
    let meta = c.request_meta();
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":"reordered","method":"tools/call","params":{{"requestState":{state},"inputResponses":{{"confirm":{{"content":{{"value":"yes"}},"action":"accept"}}}},"arguments":{{"b":{{"y":[1,2],"x":"one"}},"a":1}},"name":"echo","_meta":{meta}}}}}"#
    );
    c.raw_line(&line).await;
    let done = response_to(&c, "reordered").await;
    assert_eq!(done["result"]["resultType"], "complete", "{done:#}");
    let text = done["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("confirm=yes args="), "{text}");
}

#[tokio::test]
async fn absent_null_and_empty_arguments_are_the_same_call() {
    let server = Server::new(Hand);
    let c = client(server.clone()).await;
    let answers = json!({"user_name": named("Ada")});
    // Round 1 without `arguments`; the retry with `{}`, and the other way round.
    let no_args = json!({"name": "greet"});
    let r = c.request("tools/call", no_args.clone()).await.unwrap();
    let done = retry(&c, "greet", answers.clone(), r["requestState"].clone()).await;
    assert_eq!(done.expect("{} after absent")["resultType"], "complete");
    let state = first_round(&c, "greet", json!({})).await;
    let mut params = no_args;
    params["inputResponses"] = answers.clone();
    params["requestState"] = state.clone();
    let done = c.request("tools/call", params.clone()).await;
    assert_eq!(done.expect("absent after {}")["resultType"], "complete");
    // `null` (which the schema does not allow, and the server reads as no arguments), on a
    // fresh round of `{}` (a state is taken once).
    let sloppy = sloppy_client(server, "CallToolRequest", "sends `arguments: null`").await;
    params["requestState"] = first_round(&sloppy, "greet", json!({})).await;
    params["arguments"] = Value::Null;
    let done = sloppy.request("tools/call", params).await;
    assert_eq!(done.expect("null after {}")["resultType"], "complete");
}

/// Waits (bounded) for the response with string id `id` in the client's transcript.
async fn response_to(c: &TestClient, id: &str) -> Value {
    tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if let Some(f) = c.transcript().into_iter().find(|f| {
                f.direction == rondo_mcp::testing::Direction::Received && f.message["id"] == id
            }) {
                return f.message;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    })
    .await
    .expect("the server answers the raw request")
}

#[tokio::test]
async fn state_of_another_audience_is_rejected_even_under_the_same_key() {
    let ring = KeyRing::new(1, OLD);
    let a = client(Server::new(Hand).state_keys(ring.clone())).await;
    let b = client(Server::new(Hand).state_keys(ring).audience("billing")).await;
    let state = first_round(&a, "greet", json!({})).await;
    let r = greet_as_ada(&b, state).await;
    assert_rejected(r, "another audience");
}

#[tokio::test]
async fn expired_state_is_rejected() {
    let clock = ManualClock::new(1_000_000);
    let server = Server::new(Hand)
        .clock(clock.clone())
        .state_ttl(Duration::from_secs(60));
    let c = client(server).await;

    let state = first_round(&c, "greet", json!({})).await;
    clock.advance(Duration::from_secs(59));
    let ok = greet_as_ada(&c, state).await.expect("still within the TTL");
    assert_eq!(ok["resultType"], "complete");

    let state = first_round(&c, "greet", json!({})).await;
    clock.advance(Duration::from_secs(61));
    let r = greet_as_ada(&c, state).await;
    assert_rejected(r, "expired");
}

#[tokio::test]
async fn a_fleet_sharing_a_key_ring_serves_any_retry() {
    let ring = KeyRing::new(1, OLD);
    let a = client(Server::new(Hand).state_keys(ring.clone())).await;
    let b = client(Server::new(Hand).state_keys(ring)).await;
    let stranger = client(Server::new(Hand).state_keys(KeyRing::new(1, NEW))).await;
    let state = first_round(&a, "greet", json!({})).await;

    let done = greet_as_ada(&b, state.clone())
        .await
        .expect("another instance with the same ring opens the state");
    assert_eq!(done["content"][0]["text"], "Hello, Ada!");

    let r = greet_as_ada(&stranger, state).await;
    assert_rejected(r, "an instance with a different key (same key id)");
}

#[tokio::test]
async fn key_rotation_keeps_old_state_valid() {
    let before = client(Server::new(Hand).state_keys(KeyRing::new(1, OLD))).await;
    let after =
        client(Server::new(Hand).state_keys(KeyRing::new(2, NEW).with_previous(1, OLD))).await;
    let old_only = client(Server::new(Hand).state_keys(KeyRing::new(1, OLD))).await;
    let retired = client(Server::new(Hand).state_keys(KeyRing::new(2, NEW))).await;

    let old_state = first_round(&before, "greet", json!({})).await;
    let done = greet_as_ada(&after, old_state.clone())
        .await
        .expect("state sealed under the previous key still opens");
    assert_eq!(done["content"][0]["text"], "Hello, Ada!");

    // Once the old key is dropped, its state is refused.
    let r = greet_as_ada(&retired, old_state).await;
    assert_rejected(r, "state under a retired key");

    // The rotated ring seals under the new key: an instance that only knows the old key refuses.
    let new_state = first_round(&after, "greet", json!({})).await;
    let r = greet_as_ada(&old_only, new_state).await;
    assert_rejected(r, "state under a key the instance does not have");
}
