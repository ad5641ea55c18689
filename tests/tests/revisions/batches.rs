//! 2025-03-26's JSON-RPC batches through the in-memory client: requests answered in one array,
//! notifications only answered with nothing, bad batches answered as JSON-RPC says, and
//! batches refused at the other revisions.

use super::server::*;
use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::{Direction, Script, TestClient};
use serde_json::{Value, json};

/// The last line the client received, as JSON.
fn last_received(c: &TestClient) -> Value {
    c.transcript()
        .into_iter()
        .rev()
        .find(|f| f.direction == Direction::Received)
        .expect("an answer")
        .message
}

/// Waits until the client received `n` more lines than `before`.
async fn received_after(c: &TestClient, before: usize, n: usize) {
    for _ in 0..200 {
        let now = c
            .transcript()
            .iter()
            .filter(|f| f.direction == Direction::Received)
            .count();
        if now >= before + n {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("no answer: {:?}", c.transcript());
}

fn received_count(c: &TestClient) -> usize {
    c.transcript()
        .iter()
        .filter(|f| f.direction == Direction::Received)
        .count()
}

#[tokio::test]
async fn a_2025_03_26_session_takes_a_batch_and_answers_its_requests_in_one_array() {
    let c = connect(Revision::V2025_03_26, everything(), Script::new()).await;
    let before = received_count(&c);
    let batch = json!([
        {"jsonrpc": "2.0", "id": 10, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}},
        {"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {"name": "count", "arguments": {}}},
        {"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": {"name": "nope", "arguments": {}}},
    ]);
    c.raw_line(&batch.to_string()).await;
    received_after(&c, before, 1).await;
    let answer = last_received(&c);
    let mut ids: Vec<i64> = answer
        .as_array()
        .expect("one array")
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .collect();
    ids.sort();
    assert_eq!(ids, [10, 11, 12], "{answer}");
    let call = answer
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == 11)
        .unwrap();
    assert_eq!(call["result"]["content"][0]["text"], "three");
    c.assert_valid();
}

#[tokio::test]
async fn a_batch_of_only_notifications_is_answered_with_nothing() {
    let c = connect(Revision::V2025_03_26, everything(), Script::new()).await;
    let before = received_count(&c);
    let batch = json!([{"jsonrpc": "2.0", "method": "notifications/initialized"}]);
    c.raw_line(&batch.to_string()).await;
    // A ping after it is answered, and nothing came before its answer.
    c.request("ping", json!({})).await.unwrap();
    assert_eq!(received_count(&c), before + 1);
}

#[tokio::test]
async fn bad_batches_get_json_rpc_s_answers_and_other_revisions_refuse_batches() {
    let c = TestClient::builder(server(), Revision::V2025_03_26)
        .skip_validation_of("JSONRPCMessage", "sends bad batches on purpose")
        .skip_validation_of("JSONRPCRequest", "sends bad batch entries on purpose")
        .connect()
        .await
        .unwrap();
    // Entries that are no messages each get their own -32600; `initialize` may not be batched.
    let before = received_count(&c);
    let init = json!({"jsonrpc": "2.0", "id": 5, "method": "initialize",
        "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}});
    c.raw_line(&json!([1, [2], init]).to_string()).await;
    received_after(&c, before, 1).await;
    let answer = last_received(&c);
    let errors = answer.as_array().expect("one array");
    assert_eq!(errors.len(), 3, "{answer}");
    assert!(
        errors.iter().all(|e| e["error"]["code"] == -32600),
        "{answer}"
    );
    assert!(errors.iter().any(|e| e["id"] == 5), "{answer}");
    // Empty, oversized and malformed batches: one error each, no array.
    for (line, code) in [
        ("[]".to_owned(), -32600),
        (
            format!(
                "[{}]",
                vec![r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#; 101].join(",")
            ),
            -32600,
        ),
        ("[1,".to_owned(), -32700),
    ] {
        let before = received_count(&c);
        c.raw_line(&line).await;
        received_after(&c, before, 1).await;
        let answer = last_received(&c);
        assert_eq!(answer["error"]["code"], code, "{line:.40}: {answer}");
    }
    // A 2025-06-18 session refuses a batch whole, as every revision but 2025-03-26 does.
    let newer = TestClient::builder(server(), Revision::V2025_06_18)
        .skip_validation_of("JSONRPCMessage", "sends a batch, which 2025-06-18 removed")
        .connect()
        .await
        .unwrap();
    let before = received_count(&newer);
    newer
        .raw_line(&json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}]).to_string())
        .await;
    received_after(&newer, before, 1).await;
    let answer = last_received(&newer);
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
}
