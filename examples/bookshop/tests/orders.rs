//! A retry of `order_book` sent again never orders twice: the server's replay guard refuses it
//! before the tool runs, and without a guard the tool finds its order placed under the call's
//! flow id. `list_orders` shows what was placed, as a user would check.

use rondo_example_bookshop::router;
use rondo_mcp::prelude::*;
use rondo_mcp::testing::{Reply, Script, TestClient};
use serde_json::{Value, json};

const RUST_BOOK: &str = "9781593278281";

async fn modern(server: Server<Router>) -> TestClient {
    TestClient::modern(server)
        .capabilities(ClientCapabilities::with_elicitation_form())
        .connect()
        .await
        .expect("connects")
}

fn order(quantity: u32) -> Value {
    json!({"name": "order_book", "arguments": {"isbn": RUST_BOOK, "quantity": quantity}})
}

/// The first round of an order: its `requestState`.
async fn first_round(c: &TestClient, quantity: u32) -> Value {
    let r = c.request("tools/call", order(quantity)).await.unwrap();
    assert_eq!(r["resultType"], "input_required", "{r:#}");
    r["requestState"].clone()
}

/// The retry answering the confirmation with `answer`.
async fn answer(
    c: &TestClient,
    quantity: u32,
    state: &Value,
    answer: Value,
) -> Result<Value, Error> {
    let mut retry = order(quantity);
    retry["requestState"] = state.clone();
    retry["inputResponses"] = json!({ "confirm_order": answer });
    c.request("tools/call", retry).await
}

fn approve() -> Value {
    json!({"action": "accept", "content": {"approve": true}})
}

async fn orders(c: &TestClient) -> Vec<Value> {
    let listed = c.call_tool("list_orders", json!({})).await.unwrap();
    listed.result["structuredContent"]["orders"]
        .as_array()
        .cloned()
        .expect("the orders, as structured content")
}

#[tokio::test]
async fn the_same_retry_sent_again_orders_nothing() {
    let c = modern(Server::new(router())).await;
    let state = first_round(&c, 2).await;
    let done = answer(&c, 2, &state, approve()).await.unwrap();
    assert_eq!(
        done["content"][0]["text"],
        "Ordered 2 x \"The Rust Programming Language\", standard delivery."
    );
    // The same round sent again (a client that lost the answer): the same answer, from the
    // order's record; nothing placed again.
    for _ in 0..3 {
        let again = answer(&c, 2, &state, approve()).await.unwrap();
        assert_eq!(again["content"], done["content"], "{again:#}");
    }
    // The same round with another answer: refused before the tool runs.
    let changed = json!({"action": "accept", "content": {"approve": true, "delivery": "express"}});
    let e = answer(&c, 2, &state, changed).await.unwrap_err();
    assert_eq!(
        (e.code, e.message.as_str()),
        (-32602, "Invalid or expired requestState")
    );
    let placed = orders(&c).await;
    assert_eq!(placed.len(), 1, "one order: {placed:#?}");
    assert_eq!(placed[0]["quantity"], 2);
    assert_eq!(placed[0]["total_cents"], 7998);
}

#[tokio::test]
async fn a_declined_round_sent_again_with_accept_orders_nothing() {
    let c = modern(Server::new(router())).await;
    let state = first_round(&c, 1).await;
    let declined = answer(&c, 1, &state, json!({"action": "decline"}))
        .await
        .unwrap();
    assert_eq!(
        declined["content"][0]["text"],
        "The user declined; nothing was ordered."
    );
    let e = answer(&c, 1, &state, approve()).await.unwrap_err();
    assert_eq!(e.code, -32602);
    assert_eq!(orders(&c).await, Vec::<Value>::new());
}

#[tokio::test]
async fn without_a_guard_the_flow_id_still_orders_once() {
    let c = modern(Server::new(router()).without_replay_guard()).await;
    let state = first_round(&c, 3).await;
    let first = answer(&c, 3, &state, approve()).await.unwrap();
    // Sent again, even with another answer: the order placed under this flow is answered.
    let wrapped = json!({"action": "accept", "content": {"approve": true, "gift_wrap": true}});
    let again = answer(&c, 3, &state, wrapped).await.unwrap();
    assert_eq!(again["content"], first["content"]);
    assert_eq!(orders(&c).await.len(), 1);
}

#[tokio::test]
async fn two_calls_are_two_orders_at_both_revisions() {
    let approve = || Reply::accept(json!({"approve": true}));
    let yes = || Script::new().elicit(approve()).elicit(approve());
    for client in [
        TestClient::modern(Server::new(router())),
        TestClient::legacy(Server::new(router())),
    ] {
        let c = client
            .capabilities(ClientCapabilities::with_elicitation_form())
            .script(yes())
            .connect()
            .await
            .unwrap();
        let args = json!({"isbn": RUST_BOOK, "quantity": 1});
        for _ in 0..2 {
            let call = c.call_tool("order_book", args.clone()).await.unwrap();
            assert!(call.text().starts_with("Ordered 1 x"), "{}", call.text());
        }
        let numbers: Vec<Value> = orders(&c)
            .await
            .iter()
            .map(|o| o["number"].clone())
            .collect();
        assert_eq!(numbers, vec![json!(1), json!(2)], "{:?}", c.revision());
    }
}
