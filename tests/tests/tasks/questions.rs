//! Questions inside a task (2026-07-28): a question parks the task and `tasks/update` resumes
//! it, partial and bad answers, an explicit start that asks by rounds first, a URL flow
//! waiting in place, and questions the tool withdrew.

use super::lab::*;
use rondo_mcp::prelude::*;
use rondo_mcp::testing::{Reply, Script, TestClient};
use rondo_tests::servers::TaskLab;
use serde_json::{Value, json};
use std::time::Duration;

#[tokio::test]
async fn a_question_inside_a_task_parks_it_and_tasks_update_resumes_it() {
    let lab = TaskLab::default();
    let script = Script::new().elicit(Reply::accept(json!({"confirm": true})));
    let c = client(server(&lab), script).await;
    let id = started(&c, "ask", json!({})).await;
    let t = wait_for(&c, &id, "input_required").await;
    let q = &t["inputRequests"]["confirm"];
    assert_eq!(q["method"], "elicitation/create");
    assert_eq!(q["params"]["mode"], "form");
    assert!(t.get("requestState").is_none());
    let done = c.follow_task(&id).await.unwrap();
    assert_eq!(done.text(), "confirm: true");
}

#[tokio::test]
async fn a_partial_answer_keeps_the_task_waiting_for_the_rest() {
    let lab = TaskLab::default();
    let c = client(server(&lab), Script::new()).await;
    let id = started(&c, "two", json!({})).await;
    let mut t = wait_for(&c, &id, "input_required").await;
    for _ in 0..100 {
        if t["inputRequests"].as_object().is_some_and(|m| m.len() == 2) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
        t = c.tasks_get(&id).await.unwrap();
    }
    let ack = c
        .tasks_update(
            &id,
            json!({"a": {"action": "accept", "content": {"name": "Ada"}}}),
        )
        .await
        .unwrap();
    assert_eq!(ack["resultType"], "complete");
    let t = c.tasks_get(&id).await.unwrap();
    assert_eq!(t["status"], "input_required");
    let keys: Vec<_> = t["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, ["b"], "the answered key is gone at once");
    c.tasks_update(
        &id,
        json!({"b": {"action": "accept", "content": {"confirm": false}}}),
    )
    .await
    .unwrap();
    assert_eq!(c.follow_task(&id).await.unwrap().text(), "Ada false");
}

#[tokio::test]
async fn unknown_and_answered_keys_are_ignored_and_a_bad_answer_is_asked_under_a_new_key() {
    let lab = TaskLab::default();
    let c = builder(server(&lab), Script::new())
        .skip_validation_of(
            "UpdateTaskRequest",
            "sends an answer that is no InputResponse",
        )
        .connect()
        .await
        .unwrap();
    let id = started(&c, "twice", json!({})).await;
    wait_for(&c, &id, "input_required").await;
    let ack = c
        .tasks_update(&id, json!({"unknown-key": {"ignored": true}}))
        .await
        .unwrap();
    assert_eq!(ack["resultType"], "complete");
    assert!(c.tasks_get(&id).await.unwrap()["inputRequests"]["n"].is_object());
    // An answer that is no elicitation result: asked again under a new key, saying why.
    c.tasks_update(&id, json!({"n": {"action": "bogus"}}))
        .await
        .unwrap();
    let t = poll_keys(&c, &id, &[]).await;
    let asked = t["inputRequests"].as_object().unwrap();
    assert_eq!(
        asked.keys().collect::<Vec<_>>(),
        ["n~2"],
        "a key is never issued twice"
    );
    let message = asked["n~2"]["params"]["message"].as_str().unwrap();
    assert!(message.contains("does not parse"), "says why: {message}");
    let answer = json!({"action": "accept", "content": {"n": 1}});
    c.tasks_update(&id, json!({"n~2": answer})).await.unwrap();
    // Answered already, and never issued: both ignored.
    c.tasks_update(&id, json!({"n~2": answer, "n": answer}))
        .await
        .unwrap();
    // The loop asks the same question again (same key, same rendering): it is the same
    // question, answered, as in a multi-round call.
    assert_eq!(c.follow_task(&id).await.unwrap().text(), "1,1");
}

/// Polls until the task shows a question under a key not in `seen`.
async fn poll_keys(c: &TestClient, id: &str, seen: &[String]) -> Value {
    for _ in 0..500 {
        let t = c.tasks_get(id).await.unwrap();
        if t["inputRequests"]
            .as_object()
            .is_some_and(|m| m.keys().any(|k| k != "n" && !seen.contains(k)))
        {
            return t;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no new question");
}

#[tokio::test]
async fn an_explicit_start_asks_by_rounds_first_then_becomes_a_task() {
    let lab = TaskLab::default();
    let c = client(server(&lab), Script::new()).await;
    let first = c
        .raw_request(
            "tools/call",
            json!({"name": "explicit", "arguments": {}, "_meta": c.request_meta()}),
        )
        .await
        .unwrap();
    assert_eq!(first["resultType"], "input_required");
    assert!(first.get("taskId").is_none());
    let state = first["requestState"].clone();
    let retry = json!({"name": "explicit", "arguments": {}, "requestState": state,
                       "inputResponses": {"user_name": {"action": "accept", "content": {"name": "Alice"}}},
                       "_meta": c.request_meta()});
    let second = c.raw_request("tools/call", retry).await.unwrap();
    assert_eq!(second["resultType"], "task", "{second}");
    assert!(second.get("requestState").is_none() && second.get("inputRequests").is_none());
    let id = second["taskId"].as_str().unwrap();
    assert_eq!(
        c.follow_task(id).await.unwrap().text(),
        "Hello, Alice! (task true)"
    );
    // Without the extension the same tool answers synchronously, start_task a no-op.
    let plain = TestClient::modern(server(&lab))
        .capabilities(ClientCapabilities::with_elicitation_form())
        .script(Script::new().elicit(Reply::accept(json!({"name": "Bo"}))))
        .connect()
        .await
        .unwrap();
    let call = plain.call_tool("explicit", json!({})).await.unwrap();
    assert_eq!(call.text(), "Hello, Bo! (task false)");
}

#[tokio::test]
async fn a_url_flow_inside_a_task_waits_in_place_past_the_flow_wait() {
    let lab = TaskLab::default();
    // A 40 ms wait per request (checks every 10 ms): a multi-round call would answer a
    // state-only retry after four checks; the task waits in place for the tenth.
    let s = server(&lab).flow_wait(Duration::from_millis(40));
    let c = TestClient::modern(s)
        .capabilities(ClientCapabilities::with_elicitation_url())
        .with_tasks()
        .script(Script::new().elicit(Reply::Accept(None)))
        .connect()
        .await
        .unwrap();
    let id = started(&c, "pay", json!({})).await;
    let t = wait_for(&c, &id, "input_required").await;
    assert_eq!(t["inputRequests"]["pay_page"]["params"]["mode"], "url");
    let done = c.follow_task(&id).await.unwrap();
    assert_eq!(done.text(), "paid");
}

/// Polls `tasks/get` until `done` holds of the task (at most 5 s).
async fn wait_until(c: &TestClient, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let mut t = Value::Null;
    for _ in 0..500 {
        t = c.tasks_get(id).await.expect("tasks/get");
        if done(&t) {
            return t;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the task never showed {what}: {t}");
}

/// The keys of a task's `inputRequests`.
fn asked(t: &Value) -> Vec<String> {
    t["inputRequests"]
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_question_whose_ask_the_tool_dropped_is_withdrawn_and_its_late_answer_ignored() {
    let lab = TaskLab::default();
    let c = client(server(&lab), Script::new()).await;
    // The tool waits 300 ms for `confirm`, then drops it and asks `name` instead.
    let id = started(&c, "impatient", json!({"ms": 300, "then": "ask"})).await;
    let t = wait_for(&c, &id, "input_required").await;
    assert_eq!(asked(&t), ["confirm"]);
    let t = wait_until(&c, &id, "only `name` asked", |t| asked(t) == ["name"]).await;
    assert_eq!(t["status"], "input_required");
    // The answer to the withdrawn question comes too late: ignored, and the key is not reused.
    let late = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    c.tasks_update(&id, late).await.unwrap();
    let t = c.tasks_get(&id).await.unwrap();
    assert_eq!(
        (t["status"].as_str(), asked(&t)),
        (Some("input_required"), vec!["name".to_owned()])
    );
    let name = json!({"name": {"action": "accept", "content": {"name": "Ada"}}});
    c.tasks_update(&id, name).await.unwrap();
    assert_eq!(
        c.follow_task(&id).await.unwrap().text(),
        "gave up; name: Ada"
    );
}

#[tokio::test]
async fn a_task_whose_only_question_was_withdrawn_is_working_again() {
    let lab = TaskLab::default();
    let c = client(server(&lab), Script::new()).await;
    let id = started(&c, "impatient", json!({"ms": 300, "then": "work"})).await;
    let t = wait_for(&c, &id, "input_required").await;
    assert_eq!(asked(&t), ["confirm"]);
    let t = wait_for(&c, &id, "working").await;
    assert!(t.get("inputRequests").is_none(), "{t}");
    let late = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    c.tasks_update(&id, late).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let t = c.tasks_get(&id).await.unwrap();
    assert_eq!(
        t["status"], "working",
        "the late answer changed nothing: {t}"
    );
    assert!(t.get("inputRequests").is_none());
    c.tasks_cancel(&id).await.unwrap();
    wait_for(&c, &id, "cancelled").await;
}
