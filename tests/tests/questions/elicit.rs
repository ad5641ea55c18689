//! Typed questions (`#[derive(Elicit)]`, `#[elicit]`, `asks = [..]`, `cx.ask`) through the
//! in-memory client at both revisions: accept, decline, cancel, an answer that does not fit,
//! each fallback kind, consent that must answer a rendering the server sent, two questions in
//! one round, a prompt and a resource that ask, and URL mode with an out-of-band flow.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Revision, code};
use rondo_mcp::testing::{Direction, Reply, Script, TestClient};
use rondo_tests::questions::{Payments, server};
use serde_json::{Value, json};
use std::time::Duration;

const ELICIT: &str = "elicitation/create";

fn form() -> ClientCapabilities {
    ClientCapabilities::with_elicitation_form()
}

async fn client(rev: Revision, caps: ClientCapabilities, script: Script) -> TestClient {
    TestClient::builder(server(Payments::paid_after(0)), rev)
        .capabilities(caps)
        .script(script)
        .connect()
        .await
        .expect("connects")
}

/// The server's requests and results, in order.
fn received(c: &TestClient) -> Vec<Value> {
    c.transcript()
        .into_iter()
        .filter(|f| f.direction == Direction::Received)
        .map(|f| f.message)
        .collect()
}

const BOTH: [Revision; 2] = [Revision::V2026_07_28, Revision::V2025_11_25];

#[tokio::test]
async fn an_accepted_form_is_parsed_into_its_type_at_both_revisions() {
    for rev in BOTH {
        let script = Script::new().elicit(Reply::accept(
            json!({"approve": true, "delivery": "express"}),
        ));
        let c = client(rev, form(), script).await;
        let call = c
            .call_tool("buy", json!({"item": "tea", "quantity": 2}))
            .await
            .unwrap();
        assert_eq!(call.text(), "Bought 2 x tea, Express delivery.", "{rev}");
        assert_eq!(call.rounds, if rev.is_modern() { 2 } else { 1 });
        let asked: Vec<Value> = received(&c)
            .into_iter()
            .filter_map(|m| {
                m.get("result")
                    .and_then(|r| r.get("inputRequests"))
                    .and_then(|r| r.get("confirm"))
                    .and_then(|r| r.get("params"))
                    .or_else(|| (m["method"] == ELICIT).then(|| &m["params"]))
                    .cloned()
            })
            .collect();
        assert_eq!(asked.len(), 1, "{rev}: one question");
        assert_eq!(asked[0]["message"], "Buy tea for $25.00?");
        let schema = &asked[0]["requestedSchema"];
        assert_eq!(schema["required"], json!(["approve"]));
        assert_eq!(schema["properties"]["approve"]["title"], "Place the order?");
        assert_eq!(
            schema["properties"]["delivery"]["oneOf"][1],
            json!({"const": "express", "title": "Express (next day)"})
        );
    }
}

#[tokio::test]
async fn decline_and_cancel_are_answers_the_tool_branches_on() {
    for rev in BOTH {
        for (reply, text) in [
            (Reply::Decline, "Not bought: the user declined."),
            (Reply::Cancel, "Not bought: the question was dismissed."),
            (
                Reply::accept(json!({"approve": false})),
                "Not bought: the user said no.",
            ),
        ] {
            let c = client(rev, form(), Script::new().elicit(reply)).await;
            let call = c
                .call_tool("buy", json!({"item": "tea", "quantity": 1}))
                .await
                .unwrap();
            assert_eq!(call.text(), text, "{rev}");
            assert!(!call.is_error());
        }
    }
}

#[tokio::test]
async fn an_answer_that_does_not_fit_is_asked_again_on_2026() {
    let script = Script::new()
        .elicit(Reply::accept(json!({"approve": "yes"})))
        .elicit(Reply::accept(json!({"approve": true, "delivery": "drone"})))
        .elicit(Reply::accept(json!({"approve": true})));
    let c = client(Revision::V2026_07_28, form(), script).await;
    let call = c
        .call_tool("buy", json!({"item": "tea", "quantity": 1}))
        .await
        .unwrap();
    assert_eq!(call.rounds, 4, "asked, asked again twice, answered");
    assert_eq!(call.text(), "Bought 1 x tea, Standard delivery.");
    let results: Vec<Value> = received(&c)
        .into_iter()
        .map(|m| m["result"].clone())
        .collect();
    // Asked again, each time saying what was wrong with the last answer; the form is the same.
    let message = |i: usize| results[i]["inputRequests"]["confirm"]["params"]["message"].clone();
    assert_eq!(message(0), "Buy tea for $12.50?");
    assert_eq!(
        message(1),
        "Buy tea for $12.50?\n\nAsked again because the answer does not fit the form: \
         `approve` must be true or false, not a string."
    );
    assert_eq!(
        message(2),
        "Buy tea for $12.50?\n\nAsked again because the answer does not fit the form: \
         `delivery` must be one of `standard`, `express`, not `drone`."
    );
    let schema =
        |i: usize| results[i]["inputRequests"]["confirm"]["params"]["requestedSchema"].clone();
    assert_eq!(schema(0), schema(1));
    assert_eq!(schema(1), schema(2));
}

#[tokio::test]
async fn an_answer_that_does_not_fit_is_a_named_failure_on_2025() {
    let script = Script::new().elicit(Reply::accept(json!({"delivery": "drone"})));
    let c = client(Revision::V2025_11_25, form(), script).await;
    let call = c
        .call_tool("buy", json!({"item": "tea", "quantity": 1}))
        .await
        .unwrap();
    assert!(call.is_error());
    let text = call.text();
    assert!(text.contains("`confirm`"), "{text}");
    assert!(text.contains("`approve` is required but missing"), "{text}");
    assert!(text.contains("`delivery` must be one of"), "{text}");
}

#[tokio::test]
async fn refuse_answers_32021_naming_elicitation_at_both_revisions() {
    for rev in BOTH {
        let caps = if rev.is_modern() {
            ClientCapabilities::default()
        } else {
            ClientCapabilities::with_elicitation_url()
        };
        let c = client(rev, caps, Script::new()).await;
        let err = c
            .call_tool("buy", json!({"item": "tea", "quantity": 1}))
            .await
            .unwrap_err();
        assert_eq!(err.code, code::MISSING_REQUIRED_CLIENT_CAPABILITY, "{rev}");
        assert_eq!(
            err.data.unwrap()["requiredCapabilities"],
            json!({"elicitation": {"form": {}}}),
            "{rev}"
        );
        assert!(
            !received(&c)
                .iter()
                .any(|m| m["method"] == ELICIT || m["result"]["resultType"] == "input_required"),
            "{rev}: nothing was asked"
        );
    }
}

#[tokio::test]
async fn a_function_fallback_gets_the_same_inputs() {
    for rev in BOTH {
        let c = client(rev, ClientCapabilities::default(), Script::new()).await;
        let call = c
            .call_tool("nickname_pair", json!({"first": "Ada", "second": "Grace"}))
            .await
            .unwrap();
        assert_eq!(call.text(), "Ada & Gra", "{rev}");
        assert_eq!(call.rounds, 1);
    }
}

#[tokio::test]
async fn two_questions_in_one_round_get_distinct_keys() {
    let script = Script::new()
        .elicit(Reply::accept(json!({"nickname": "Countess"})))
        .elicit(Reply::accept(json!({"nickname": "Amazing"})));
    let c = client(Revision::V2026_07_28, form(), script).await;
    let call = c
        .call_tool("nickname_pair", json!({"first": "Ada", "second": "Grace"}))
        .await
        .unwrap();
    assert_eq!(call.rounds, 2);
    let first = &received(&c)[0]["result"];
    let keys: Vec<&String> = first["inputRequests"].as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 2);
    assert!(keys.iter().all(|k| k.starts_with("nickname~")), "{keys:?}");
    assert_eq!(call.text().split(" & ").count(), 2);
}

#[tokio::test]
async fn args_fallback_builds_the_answer_from_tool_arguments() {
    for rev in BOTH {
        let c = client(rev, ClientCapabilities::default(), Script::new()).await;
        let tools = c.list_tools().await.unwrap();
        let welcome = tools.iter().find(|t| t.name == "welcome").unwrap();
        let props = welcome.input_schema["properties"].as_object().unwrap();
        assert!(
            props.contains_key("greeting")
                && props.contains_key("name")
                && props.contains_key("age")
        );
        assert_eq!(
            welcome.input_schema["required"],
            json!(["greeting"]),
            "{rev}"
        );
        let call = c
            .call_tool(
                "welcome",
                json!({"greeting": "Hi", "name": "Ada", "age": 36}),
            )
            .await
            .unwrap();
        assert_eq!(call.text(), "Hi, Ada (36)!", "{rev}");
        let missing = c
            .call_tool("welcome", json!({"greeting": "Hi"}))
            .await
            .unwrap();
        assert!(missing.is_error(), "{rev}");
        assert!(
            missing.text().contains("`name` is required"),
            "{}",
            missing.text()
        );
    }
}

#[tokio::test]
async fn a_client_that_can_show_forms_is_asked_even_when_arguments_are_given() {
    let script = Script::new().elicit(Reply::accept(json!({"name": "Grace"})));
    let c = client(Revision::V2026_07_28, form(), script).await;
    let call = c
        .call_tool("welcome", json!({"greeting": "Hello"}))
        .await
        .unwrap();
    assert_eq!(call.text(), "Hello, Grace!");
}

#[tokio::test]
async fn a_form_the_client_can_show_comes_prefilled_with_the_arguments_given() {
    for rev in BOTH {
        let script = Script::new().elicit(Reply::accept(json!({"name": "Ada"})));
        let c = client(rev, form(), script).await;
        // `age` breaks its bounds (1..150): it is not offered as a default.
        let args = json!({"greeting": "Hi", "name": "Ada", "age": 200});
        let call = c.call_tool("welcome", args).await.unwrap();
        assert_eq!(
            call.text(),
            "Hi, Ada!",
            "{rev}: still asked; the answer counts"
        );
        let asked: Vec<Value> = received(&c)
            .into_iter()
            .filter_map(|m| {
                m.get("result")
                    .and_then(|r| r.get("inputRequests"))
                    .and_then(|r| r.get("guest"))
                    .and_then(|r| r.get("params"))
                    .or_else(|| (m["method"] == ELICIT).then(|| &m["params"]))
                    .cloned()
            })
            .collect();
        assert_eq!(asked.len(), 1, "{rev}: {asked:#?}");
        let fields = &asked[0]["requestedSchema"]["properties"];
        assert_eq!(fields["name"]["default"], "Ada", "{rev}: {fields:#}");
        assert!(fields["age"].get("default").is_none(), "{rev}: {fields:#}");
    }
}

#[tokio::test]
async fn consent_sent_up_front_is_ignored_and_the_question_is_shown() {
    let c = client(Revision::V2026_07_28, form(), Script::new()).await;
    let up_front = json!({"name": "buy", "arguments": {"item": "tea", "quantity": 1},
        "inputResponses": {"confirm": {"action": "accept", "content": {"approve": true}}}});
    let r = c.request("tools/call", up_front).await.unwrap();
    assert_eq!(
        r["resultType"], "input_required",
        "no order without the question: {r}"
    );
    assert_eq!(
        r["inputRequests"]["confirm"]["params"]["message"],
        "Buy tea for $12.50?"
    );
}

#[tokio::test]
async fn plain_data_sent_up_front_is_accepted() {
    let c = client(Revision::V2026_07_28, form(), Script::new()).await;
    let up_front = json!({"name": "welcome", "arguments": {"greeting": "Hey"},
        "inputResponses": {"guest": {"action": "accept", "content": {"name": "Ada"}}}});
    let r = c.request("tools/call", up_front).await.unwrap();
    assert_eq!(r["resultType"], "complete");
    assert_eq!(r["content"][0]["text"], "Hey, Ada!");
}

#[tokio::test]
async fn a_confirmation_for_another_price_does_not_buy() {
    let c = client(Revision::V2026_07_28, form(), Script::new()).await;
    let first = c
        .request(
            "tools/call",
            json!({"name": "buy", "arguments": {"item": "tea", "quantity": 1}}),
        )
        .await
        .unwrap();
    // The state is bound to the arguments: replaying it for another quantity is refused.
    let replay = json!({"name": "buy", "arguments": {"item": "tea", "quantity": 9},
        "requestState": first["requestState"],
        "inputResponses": {"confirm": {"action": "accept", "content": {"approve": true}}}});
    let err = c.request("tools/call", replay).await.unwrap_err();
    assert_eq!(err.message, "Invalid or expired requestState");
}

#[tokio::test]
async fn a_prompt_and_a_resource_ask_too() {
    for rev in BOTH {
        let script = Script::new()
            .elicit(Reply::accept(json!({"nickname": "Countess"})))
            .elicit(Reply::accept(json!({"approve": true})));
        let c = client(rev, form(), script).await;
        let prompt = c
            .get_prompt("introduce", json!({"name": "Ada"}))
            .await
            .unwrap();
        assert_eq!(prompt.text(), "Introduce Ada, known as Countess.", "{rev}");
        let read = c.read_resource("guests://secret").await.unwrap();
        assert_eq!(read.result["contents"][0]["text"], "the secret", "{rev}");
    }
}

fn pay_client(
    payments: Payments,
    rev: Revision,
    wait_ms: u64,
) -> rondo_mcp::testing::TestClientBuilder<Router> {
    let server = server(payments)
        .flow_wait(Duration::from_millis(wait_ms))
        .max_rounds(2);
    TestClient::builder(server, rev)
        .capabilities(ClientCapabilities::with_elicitation_url())
        .script(Script::new().elicit(Reply::Accept(None)))
        .max_rounds(100)
}

#[tokio::test]
async fn url_mode_waits_then_answers_state_only_rounds_until_the_flow_finishes() {
    let payments = Payments::paid_after(12);
    let c = pay_client(payments.clone(), Revision::V2026_07_28, 40)
        .connect()
        .await
        .unwrap();
    let call = c
        .call_tool("checkout", json!({"order": "A1"}))
        .await
        .unwrap();
    assert_eq!(call.text(), "Paid: receipt-A1");
    let results: Vec<Value> = received(&c)
        .into_iter()
        .map(|m| m["result"].clone())
        .collect();
    assert!(
        results[0]["inputRequests"]["pay"]["params"]["url"] == "https://pay.example.com/orders/A1"
    );
    let waiting: Vec<&Value> = results[1..results.len() - 1].iter().collect();
    assert!(!waiting.is_empty(), "at least one state-only round");
    for w in &waiting {
        assert_eq!(w["resultType"], "input_required");
        assert!(w.get("inputRequests").is_none(), "state only: {w}");
        assert!(w["requestState"].is_string());
    }
    // More waiting rounds than the server's round cap (2): waiting is bounded by time.
    assert!(call.rounds > 3, "{} rounds", call.rounds);
    assert_eq!(payments.checks("A1"), 13);
}

#[tokio::test]
async fn url_mode_gives_up_after_the_time_budget() {
    let server = server(Payments::paid_after(u32::MAX))
        .flow_wait(Duration::from_millis(20))
        .flow_budget(Duration::from_millis(150));
    let c = TestClient::modern(server)
        .capabilities(ClientCapabilities::with_elicitation_url())
        .script(Script::new().elicit(Reply::Accept(None)))
        .max_rounds(1000)
        .connect()
        .await
        .unwrap();
    let call = c
        .call_tool("checkout", json!({"order": "B2"}))
        .await
        .unwrap();
    assert!(call.is_error());
    assert!(
        call.text().contains("`pay` did not finish within"),
        "{}",
        call.text()
    );
}

#[tokio::test]
async fn url_consent_never_comes_up_front() {
    let c = pay_client(Payments::paid_after(0), Revision::V2026_07_28, 40)
        .connect()
        .await
        .unwrap();
    let r = c
        .request(
            "tools/call",
            json!({"name": "checkout", "arguments": {"order": "C3"},
            "inputResponses": {"pay": {"action": "accept"}}}),
        )
        .await
        .unwrap();
    assert_eq!(r["resultType"], "input_required");
    assert!(r["inputRequests"]["pay"].is_object());
}

#[tokio::test]
async fn url_mode_on_2025_waits_and_notifies_completion() {
    let payments = Payments::paid_after(3);
    let c = pay_client(payments, Revision::V2025_11_25, 40)
        .connect()
        .await
        .unwrap();
    let call = c
        .call_tool("checkout", json!({"order": "D4"}))
        .await
        .unwrap();
    assert_eq!(call.text(), "Paid: receipt-D4");
    let msgs = received(&c);
    let asked = msgs.iter().find(|m| m["method"] == ELICIT).expect("asked");
    let id = asked["params"]["elicitationId"]
        .as_str()
        .expect("an elicitationId");
    let done = msgs
        .iter()
        .find(|m| m["method"] == "notifications/elicitation/complete")
        .expect("the completion notification");
    assert_eq!(done["params"]["elicitationId"], id);
}
