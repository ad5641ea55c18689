//! What the client's answers may and may not do at 2026-07-28: an answer given to one rendering
//! of a question is never applied to a changed question (design §4, the digest rule), a
//! `resources/read` result built from answers is never cacheable, and a request that keeps
//! asking ends at the round cap with its own message.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::code;
use rondo_mcp::testing::{Reply, Script, TestClient};
use rondo_tests::servers::{Lab, accepted, call, retry};
use serde_json::{Value, json};
use std::sync::atomic::Ordering;

const ELICIT: &str = "elicitation/create";

async fn client<H: Handler>(server: Server<H>, script: Script) -> TestClient {
    TestClient::modern(server)
        .capabilities(ClientCapabilities::with_elicitation_form())
        .script(script)
        .max_rounds(32)
        .connect()
        .await
        .expect("connects")
}

/// `(ttlMs, cacheScope)` of a result.
fn cache(result: &Value) -> (Value, Value) {
    (result["ttlMs"].clone(), result["cacheScope"].clone())
}

#[tokio::test]
async fn an_answer_to_an_old_rendering_is_not_applied_to_the_changed_question() {
    let lab = Lab::new();
    let probe = lab.probe.clone();
    let c = client(Server::new(lab), Script::new()).await;
    let first = call(&c, "reprice").await.unwrap();
    assert_eq!(
        first["inputRequests"]["confirm"]["params"]["message"],
        "Pay $10?"
    );
    // The price changes between the rounds: the same question key renders differently.
    probe.price.store(12, Ordering::SeqCst);
    let yes = json!({"confirm": accepted("yes")});
    let again = retry(&c, "reprice", yes.clone(), first["requestState"].clone())
        .await
        .unwrap();
    assert_eq!(
        again["resultType"], "input_required",
        "a yes to `Pay $10?` must not pay $12: {again:#}"
    );
    assert_eq!(
        again["inputRequests"]["confirm"]["params"]["message"],
        "Pay $12?"
    );
    let done = retry(&c, "reprice", yes, again["requestState"].clone())
        .await
        .unwrap();
    assert_eq!(done["content"][0]["text"], "paid 12: yes");
}

#[tokio::test]
async fn a_read_built_from_the_clients_answers_is_private_and_never_reused() {
    let script = Script::new().keyed(ELICIT, "reveal", Reply::accept(json!({"value": "yes"})));
    let c = client(Server::new(Lab::publicly_cached()), script).await;
    let public = (json!(60_000), json!("public"));
    let private = (json!(0), json!("private"));
    // What the server's hint gives a read that asks nothing, and a list.
    let plain = c.read_resource("lab://plain").await.unwrap();
    assert_eq!(cache(&plain.result), public);
    let list = c.request("resources/list", json!({})).await.unwrap();
    assert_eq!(cache(&list), public);
    // After a retry carrying the answer.
    let answered = c.read_resource("lab://secret").await.unwrap();
    assert_eq!(answered.rounds, 2);
    assert_eq!(answered.result["contents"][0]["text"], "reveal=yes");
    assert_eq!(cache(&answered.result), private);
    // With the answer sent up front, before it was asked (no requestState): one round.
    let params = json!({"uri": "lab://secret", "inputResponses": {"reveal": accepted("yes")}});
    let up_front = c.request("resources/read", params).await.unwrap();
    assert_eq!(up_front["resultType"], "complete");
    assert_eq!(up_front["contents"][0]["text"], "reveal=yes");
    assert_eq!(cache(&up_front), private);
}

/// Calls `endless` (which never accepts an answer) on a server with `cap` rounds, if any;
/// returns how many `InputRequiredResult`s it answered and the error that ended it.
async fn endless(cap: Option<u32>) -> (usize, Error) {
    let server = match cap {
        Some(n) => Server::new(Lab::new()).max_rounds(n),
        None => Server::new(Lab::new()),
    };
    let mut script = Script::new();
    for _ in 0..40 {
        script = script.keyed(ELICIT, "again", Reply::accept(json!({"value": "x"})));
    }
    let c = client(server, script).await;
    let e = c
        .call_tool("endless", json!({}))
        .await
        .expect_err("the cap ends the call");
    let asked = c
        .transcript()
        .iter()
        .filter(|f| f.message["result"]["resultType"] == "input_required")
        .count();
    // The server keeps serving.
    let next = call(&c, "steps").await.unwrap();
    assert_eq!(next["resultType"], "input_required");
    (asked, e)
}

#[tokio::test]
async fn the_round_cap_ends_an_endless_asker_with_its_own_message() {
    let (asked, e) = endless(Some(3)).await;
    assert_eq!(asked, 3, "max_rounds(3) allows three InputRequiredResults");
    // The retry after the third carried a genuine state: this is the cap, not a rejection.
    assert_eq!(
        (e.code, e.message.as_str()),
        (
            code::INVALID_PARAMS,
            "The request needed more than 3 rounds of input; start it again (the last \
             answer to `again` was asked again because the answer does not parse: never good \
             enough)"
        )
    );
    assert_ne!(e.message, "Invalid or expired requestState");
}

#[tokio::test]
async fn the_round_cap_is_16_by_default() {
    let (asked, e) = endless(None).await;
    assert_eq!(asked, 16);
    assert_eq!(
        e.message,
        "The request needed more than 16 rounds of input; start it again (the last \
             answer to `again` was asked again because the answer does not parse: never good \
             enough)"
    );
}
