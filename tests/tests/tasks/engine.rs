//! The tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28) through the engine:
//! when a `tools/call` becomes a task, `tasks/get`, `tasks/update` and `tasks/cancel`, how a
//! task ends, questions inside a task, principals, expiry and the bound per principal. Every
//! message is checked against the 2026-07-28 schema merged with the extension's.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{TASKS_EXTENSION, code};
use rondo_mcp::tasks::{MemoryTaskStore, TaskId, TaskStore};
use rondo_mcp::testing::{ManualClock, Reply, Script, TestClient, TestClientBuilder};
use rondo_tests::servers::TaskLab;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

fn builder(server: Server<TaskLab>, script: Script) -> TestClientBuilder<TaskLab> {
    TestClient::modern(server)
        .capabilities(ClientCapabilities::with_elicitation_form())
        .with_tasks()
        .script(script)
}

async fn client(server: Server<TaskLab>, script: Script) -> TestClient {
    builder(server, script).connect().await.expect("connects")
}

fn server(lab: &TaskLab) -> Server<TaskLab> {
    Server::new(lab.clone()).task_poll_interval(Duration::from_millis(20))
}

async fn started(c: &TestClient, tool: &str, args: Value) -> String {
    let call = c.call_tool(tool, args).await.expect("answered");
    call.task_id()
        .unwrap_or_else(|| panic!("{tool} was not answered with a task: {}", call.result))
        .to_owned()
}

/// Polls `tasks/get` until `status` (at most 5 s).
async fn wait_for(c: &TestClient, id: &str, status: &str) -> Value {
    for _ in 0..500 {
        let t = c.tasks_get(id).await.expect("tasks/get");
        if t["status"] == status {
            return t;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the task never reached {status}");
}

#[tokio::test]
async fn a_declaring_call_is_answered_with_a_task_that_completes_with_its_result() {
    let lab = TaskLab::default();
    let c = client(server(&lab), Script::new()).await;
    let call = c.call_tool("slow", json!({"seconds": 0.05})).await.unwrap();
    let r = &call.result;
    assert_eq!(r["resultType"], "task");
    let id = call.task_id().expect("a task");
    assert!(TaskId::parse(id).is_some(), "32 hex digits: {id}");
    assert_eq!(r["status"], "working");
    assert!(r["ttlMs"].is_u64() && r["pollIntervalMs"] == 20);
    let iso = r["createdAt"].as_str().unwrap();
    assert!(
        iso.len() == 24 && iso.ends_with('Z') && &iso[10..11] == "T",
        "{iso}"
    );
    for absent in [
        "result",
        "error",
        "inputRequests",
        "requestState",
        "content",
        "task",
    ] {
        assert!(r.get(absent).is_none(), "{absent} in {r}");
    }
    // Durable before it was answered: found at once.
    assert_eq!(c.tasks_get(id).await.unwrap()["taskId"], id);
    let done = c.follow_task(id).await.unwrap();
    assert_eq!(done.text(), "slept 0.05 s");
    assert_eq!(done.result["resultType"], "complete");
    assert!(lab.probe.slow_finished.load(Ordering::SeqCst));
}

#[tokio::test]
async fn without_the_extension_an_optional_tool_runs_synchronously_and_a_required_one_is_refused() {
    let lab = TaskLab::default();
    let c = TestClient::modern(server(&lab)).connect().await.unwrap();
    let call = c.call_tool("slow", json!({"seconds": 0})).await.unwrap();
    assert_eq!(call.result["resultType"], "complete");
    assert_eq!(call.text(), "slept 0 s");
    assert!(call.task_id().is_none());
    let e = c.call_tool("required", json!({})).await.unwrap_err();
    assert_eq!(e.code, code::MISSING_REQUIRED_CLIENT_CAPABILITY);
    assert_eq!(
        e.data.unwrap()["requiredCapabilities"]["extensions"][TASKS_EXTENSION],
        json!({})
    );
    assert_eq!(
        lab.probe.required_ran.load(Ordering::SeqCst),
        0,
        "it never ran"
    );
    // A tool without a task mode is never a task, declared or not.
    let d = client(server(&lab), Script::new()).await;
    let greet = d.call_tool("greet", json!({})).await.unwrap();
    assert_eq!(greet.result["resultType"], "complete");
}

#[tokio::test]
async fn the_legacy_task_param_neither_errors_nor_makes_a_task() {
    let lab = TaskLab::default();
    let c = TestClient::modern(server(&lab)).connect().await.unwrap();
    let params = json!({"name": "slow", "arguments": {"seconds": 0},
                        "task": {"ttl": 60000, "pollInterval": 1000}});
    let r = c.request("tools/call", params).await.unwrap();
    assert_eq!(r["resultType"], "complete");
}

#[tokio::test]
async fn at_2025_11_25_an_optional_tool_runs_synchronously_and_task_methods_do_not_exist() {
    let lab = TaskLab::default();
    let c = TestClient::legacy(server(&lab)).connect().await.unwrap();
    let call = c.call_tool("slow", json!({"seconds": 0})).await.unwrap();
    assert_eq!(call.text(), "slept 0 s");
    let e = c.call_tool("required", json!({})).await.unwrap_err();
    assert_eq!(e.code, code::MISSING_REQUIRED_CLIENT_CAPABILITY);
    let e = c
        .raw_request("tasks/get", json!({"taskId": "0".repeat(32)}))
        .await;
    assert_eq!(e.unwrap_err().code, code::METHOD_NOT_FOUND);
}

#[tokio::test]
async fn how_a_task_ends_follows_how_its_tool_ended() {
    let lab = TaskLab::default();
    let c = client(server(&lab), Script::new()).await;
    let id = started(&c, "tool_error", json!({})).await;
    let done = c.follow_task(&id).await.unwrap();
    assert!(
        done.is_error(),
        "an isError result is completed: {}",
        done.result
    );
    assert_eq!(c.tasks_get(&id).await.unwrap()["status"], "completed");

    let id = started(&c, "fail", json!({})).await;
    let e = c.follow_task(&id).await.unwrap_err();
    assert_eq!(e.message, "the job failed");
    let t = c.tasks_get(&id).await.unwrap();
    assert_eq!(t["status"], "failed");
    assert_eq!(t["statusMessage"], "the job failed");
    assert!(t.get("result").is_none());

    let id = started(&c, "boom", json!({})).await;
    let done = c.follow_task(&id).await.unwrap();
    assert!(done.is_error());
    assert_eq!(done.text(), "Tool `boom` failed with an internal error");
}

#[tokio::test]
async fn cancel_drops_the_tools_future_and_settles_the_task_cancelled() {
    let lab = TaskLab::default();
    let c = client(server(&lab), Script::new()).await;
    let id = started(&c, "slow", json!({"seconds": 60})).await;
    let ack = c.tasks_cancel(&id).await.unwrap();
    assert_eq!(ack["resultType"], "complete");
    for absent in ["taskId", "status", "result", "error", "inputRequests"] {
        assert!(ack.get(absent).is_none(), "{absent} in {ack}");
    }
    let t = wait_for(&c, &id, "cancelled").await;
    assert!(t.get("result").is_none() && t.get("error").is_none());
    assert!(
        lab.probe.slow_dropped.load(Ordering::SeqCst),
        "the future was dropped"
    );
    assert!(!lab.probe.slow_finished.load(Ordering::SeqCst));
    // Idempotent: the same empty acknowledgement on a terminal task.
    assert_eq!(c.tasks_cancel(&id).await.unwrap(), ack);
}

#[tokio::test]
async fn task_methods_check_the_extension_first_then_the_params_then_the_id() {
    let lab = TaskLab::default();
    let bare = TestClient::modern(server(&lab))
        .skip_validation_of("UpdateTaskRequest", "sends an empty answer set on purpose")
        .connect()
        .await
        .unwrap();
    for (method, params) in [
        ("tasks/get", json!({"taskId": "gate-test"})),
        (
            "tasks/update",
            json!({"taskId": "gate-test", "inputResponses": {}}),
        ),
        ("tasks/cancel", json!({"taskId": "gate-test"})),
    ] {
        let e = bare.request(method, params).await.unwrap_err();
        assert_eq!(e.code, code::MISSING_REQUIRED_CLIENT_CAPABILITY, "{method}");
        assert!(e.data.unwrap()["requiredCapabilities"]["extensions"][TASKS_EXTENSION].is_object());
    }
    let c = builder(server(&lab), Script::new())
        .skip_validation_of("GetTaskRequest", "sends a bad taskId on purpose")
        .skip_validation_of(
            "ClientRequest",
            "sends the removed tasks/result and tasks/list",
        )
        .connect()
        .await
        .unwrap();
    let e = c
        .request("tasks/get", json!({"taskId": 5}))
        .await
        .unwrap_err();
    assert_eq!(
        (e.code, e.message.as_str()),
        (code::INVALID_PARAMS, "`taskId` must be a string")
    );
    for unknown in [
        "tasks-conformance-nonexistent-12345".to_owned(),
        "0".repeat(32),
    ] {
        let e = c.tasks_get(&unknown).await.unwrap_err();
        assert_eq!(e.code, code::INVALID_PARAMS);
        assert_eq!(e.message, "Failed to retrieve task: Task not found");
        assert_eq!(
            c.tasks_cancel(&unknown).await.unwrap_err().message,
            e.message
        );
    }
    for removed in ["tasks/result", "tasks/list"] {
        let e = c
            .raw_request(removed, json!({"_meta": c.request_meta()}))
            .await;
        assert_eq!(e.unwrap_err().code, code::METHOD_NOT_FOUND, "{removed}");
    }
}

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
async fn another_principal_gets_the_unknown_task_error_and_the_task_is_untouched() {
    // Over stdio every task is the principal-less caller's; principals are tested at the
    // store (task_store.rs) and over HTTP (http_tasks.rs). Here: the store's owner check is
    // what the engine uses, shown by a record another principal created.
    let store = Arc::new(MemoryTaskStore::default());
    let lab = TaskLab::default();
    let c = client(server(&lab).task_store(store.clone()), Script::new()).await;
    let lease = rondo_mcp::tasks::Lease {
        owner: "elsewhere".into(),
        until_ms: u64::MAX,
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let theirs =
        rondo_mcp::tasks::TaskRecord::new(Some("mallory".into()), "slow", now, 60_000, 1000, lease);
    store.create(&theirs, 10).await.unwrap();
    let e = c.tasks_get(theirs.id.as_str()).await.unwrap_err();
    assert_eq!(e.message, "Failed to retrieve task: Task not found");
    let e = c.tasks_cancel(theirs.id.as_str()).await.unwrap_err();
    assert_eq!(e.code, code::INVALID_PARAMS);
    let kept = store.load(&theirs.id, now).await.unwrap().unwrap();
    assert!(!kept.cancel_requested, "untouched");
}

#[tokio::test]
async fn a_task_lives_its_ttl_and_not_longer() {
    let clock = ManualClock::new(1_796_000_000_000);
    let lab = TaskLab::default();
    let s = server(&lab)
        .clock(clock.clone())
        .task_ttl(Duration::from_secs(10));
    let c = client(s, Script::new()).await;
    let id = started(&c, "tool_error", json!({})).await;
    c.follow_task(&id).await.unwrap();
    assert_eq!(c.tasks_get(&id).await.unwrap()["ttlMs"], 10_000);
    clock.advance(Duration::from_millis(10_000));
    assert_eq!(
        c.tasks_get(&id).await.unwrap()["status"],
        "completed",
        "kept to its ttl"
    );
    clock.advance(Duration::from_millis(1));
    assert_eq!(
        c.tasks_get(&id).await.unwrap_err().code,
        code::INVALID_PARAMS
    );
}

#[tokio::test]
async fn the_tasks_one_principal_holds_are_bounded() {
    let lab = TaskLab::default();
    let c = client(server(&lab).max_tasks_per_principal(2), Script::new()).await;
    started(&c, "slow", json!({"seconds": 0})).await;
    started(&c, "slow", json!({"seconds": 0})).await;
    let e = c
        .call_tool("slow", json!({"seconds": 0}))
        .await
        .unwrap_err();
    assert_eq!(e.code, code::INTERNAL_ERROR);
    assert!(e.message.contains('2'), "names the bound: {}", e.message);
}

#[tokio::test]
async fn a_task_asking_more_than_its_bound_fails() {
    let lab = TaskLab::default();
    let c = client(server(&lab).max_task_questions(1), Script::new()).await;
    let id = started(&c, "two", json!({})).await;
    let e = c.follow_task(&id).await.unwrap_err();
    assert_eq!(e.code, code::INVALID_PARAMS);
    assert_eq!(e.message, "The task asked more than 1 questions");
}

#[tokio::test]
async fn the_server_advertises_the_extension_in_discover() {
    let lab = TaskLab::default();
    let c = client(server(&lab), Script::new()).await;
    let d = c.request("server/discover", json!({})).await.unwrap();
    assert_eq!(d["capabilities"]["extensions"][TASKS_EXTENSION], json!({}));
    assert!(d["capabilities"].get("tasks").is_none());
    let legacy = TestClient::legacy(server(&lab)).connect().await.unwrap();
    drop(legacy);
}

#[tokio::test]
async fn a_graceful_shutdown_settles_a_running_task_failed_saying_so() {
    let lab = TaskLab::default();
    let s = server(&lab);
    let hub = s.notifier();
    let c = client(s, Script::new()).await;
    let id = started(&c, "slow", json!({"seconds": 60})).await;
    hub.shutdown();
    let t = wait_for(&c, &id, "failed").await;
    assert_eq!(
        t["statusMessage"],
        "The server shut down before this task finished"
    );
    assert!(lab.probe.slow_dropped.load(Ordering::SeqCst));
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

#[tokio::test]
async fn progress_in_a_task_becomes_its_status_message_and_sends_nothing() {
    let lab = TaskLab::default();
    let c = client(server(&lab), Script::new()).await;
    let params = json!({"name": "progress", "arguments": {},
                        "_meta": {"progressToken": "p1"}});
    let created = c.request("tools/call", params).await.unwrap();
    let id = created["taskId"].as_str().unwrap().to_owned();
    let mut t = Value::Null;
    for _ in 0..200 {
        t = c.tasks_get(&id).await.unwrap();
        if t.get("statusMessage").is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(t["statusMessage"], "step 1 of 3");
    assert_eq!(t["status"], "working");
    let progress = c
        .transcript()
        .into_iter()
        .filter(|f| f.message["method"] == "notifications/progress")
        .count();
    assert_eq!(progress, 0, "no progress notifications for a task");
    c.tasks_cancel(&id).await.unwrap();
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
