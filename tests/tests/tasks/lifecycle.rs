//! The tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28) through the engine: when a
//! `tools/call` becomes a task, `tasks/get` and `tasks/cancel`, how a task ends, principals,
//! expiry, the bound per principal, shutdown, and progress as the task's status message.

use super::lab::*;
use rondo_mcp::protocol::{TASKS_EXTENSION, code};
use rondo_mcp::tasks::{MemoryTaskStore, TaskId, TaskStore};
use rondo_mcp::testing::{ManualClock, Script, TestClient};
use rondo_tests::servers::TaskLab;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

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
