//! Following tasks with `subscriptions/listen` (2026-07-28): a listener is told each status
//! as `tasks/get` shows it, and the task ids of a listen need the extension and are
//! bounded.

use super::lab::*;
use rondo_mcp::protocol::{TASKS_EXTENSION, code};
use rondo_mcp::testing::{Script, TestClient};
use rondo_tests::servers::TaskLab;
use serde_json::{Value, json};
use std::time::Duration;

/// Sends `subscriptions/listen` with this filter under the id `sub`.
async fn listen(c: &TestClient, filter: Value) {
    let listen = json!({"jsonrpc": "2.0", "id": "sub", "method": "subscriptions/listen",
        "params": {"_meta": c.request_meta(), "notifications": filter}});
    c.raw_line(&listen.to_string()).await;
}

/// The params of every `method` notification received so far.
fn received(c: &TestClient, method: &str) -> Vec<Value> {
    c.transcript()
        .into_iter()
        .filter(|f| f.message["method"] == method)
        .map(|f| f.message["params"].clone())
        .collect()
}

/// Waits (at most 5 s) until `done` holds of the `method` notifications received.
async fn heard(c: &TestClient, method: &str, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    for _ in 0..500 {
        let got = received(c, method);
        if done(&got) {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("never heard enough {method}: {:?}", received(c, method));
}

/// The statuses told by `notifications/tasks` for `id`, in order.
fn statuses(told: &[Value], id: &str) -> Vec<String> {
    told.iter()
        .filter(|p| p["taskId"] == id)
        .map(|p| p["status"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test]
async fn a_listener_following_a_task_is_told_each_status_as_tasks_get_shows_it() {
    let lab = TaskLab::default();
    let c = client(server(&lab), Script::new()).await;
    let id = started(&c, "ask", json!({})).await;
    let other = started(&c, "slow", json!({"seconds": 60})).await;
    listen(&c, json!({"taskIds": [id, "0".repeat(32), "not-a-task"]})).await;
    let ack = heard(&c, "notifications/subscriptions/acknowledged", |a| {
        !a.is_empty()
    })
    .await;
    // Only the task this principal may see is acknowledged (unknown ids are left out).
    assert_eq!(ack[0]["notifications"], json!({"taskIds": [id]}));
    // Told as it stands, then when it changes: waiting for `confirm`...
    let told = heard(&c, "notifications/tasks", |t| {
        statuses(t, &id)
            .last()
            .is_some_and(|s| s == "input_required")
    })
    .await;
    let last = told.iter().rev().find(|p| p["taskId"] == id).unwrap();
    assert_eq!(
        last["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "sub"
    );
    assert_eq!(
        last["inputRequests"]["confirm"]["method"],
        "elicitation/create"
    );
    assert!(last.get("resultType").is_none());
    let answer = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    c.tasks_update(&id, answer).await.unwrap();
    // ...then completed, with the result inlined as tasks/get inlines it.
    let told = heard(&c, "notifications/tasks", |t| {
        statuses(t, &id).last().is_some_and(|s| s == "completed")
    })
    .await;
    let done = told.iter().rev().find(|p| p["taskId"] == id).unwrap();
    assert_eq!(done["result"]["content"][0]["text"], "confirm: true");
    let got = c.tasks_get(&id).await.unwrap();
    for field in [
        "taskId",
        "status",
        "createdAt",
        "lastUpdatedAt",
        "ttlMs",
        "result",
    ] {
        assert_eq!(done[field], got[field], "{field}");
    }
    // A status is told once, in order; a task not asked for is never told.
    let seen = statuses(&told, &id);
    let mut once = seen.clone();
    once.dedup();
    assert_eq!(seen, once, "{seen:?}");
    assert_eq!(seen.last().map(String::as_str), Some("completed"));
    assert!(statuses(&told, &other).is_empty());
    c.tasks_cancel(&other).await.unwrap();
    c.assert_valid();
}

#[tokio::test]
async fn task_ids_on_a_listen_need_the_extension_and_are_bounded() {
    let lab = TaskLab::default();
    let c = client(server(&lab).max_listen_tasks(2), Script::new()).await;
    let id = started(&c, "slow", json!({"seconds": 60})).await;
    let three = json!({"taskIds": [id, "a", "b"]});
    let e = c
        .raw_request(
            "subscriptions/listen",
            json!({"_meta": c.request_meta(), "notifications": three}),
        )
        .await
        .unwrap_err();
    assert_eq!(e.code, code::INVALID_PARAMS);
    assert!(e.message.contains("at most 2 tasks"), "{}", e.message);
    let bare = TestClient::modern(server(&lab)).connect().await.unwrap();
    let e = bare
        .raw_request(
            "subscriptions/listen",
            json!({"_meta": bare.request_meta(), "notifications": {"taskIds": [id]}}),
        )
        .await
        .unwrap_err();
    assert_eq!(e.code, code::MISSING_REQUIRED_CLIENT_CAPABILITY);
    assert_eq!(
        e.data.unwrap()["requiredCapabilities"]["extensions"][TASKS_EXTENSION],
        json!({})
    );
    c.tasks_cancel(&id).await.unwrap();
}
