//! Tasks across a fleet: two servers sharing one `RedisTaskStore` (each on its own
//! connection, on a `redis-server` of the test's own). A task created on one is read, answered
//! and cancelled through the other while its tool runs on the first; an instance that dies
//! (its tokio runtime dropped, so its runner stops without any shutdown path, as a crash does)
//! leaves the task `failed` once its lease lapsed, never `working`. A listener on the other
//! instance hears the task's changes from the store, within the poll interval.
#![cfg(feature = "redis")]

use crate::redis_server;

use redis_server::RedisServer;
use rondo_mcp::prelude::*;
use rondo_mcp::shared::RedisTaskStore;
use rondo_mcp::tasks::LAPSED_MESSAGE;
use rondo_mcp::testing::{Script, TestClient};
use rondo_tests::servers::TaskLab;
use serde_json::{Value, json};
use std::sync::atomic::Ordering;
use std::time::Duration;

async fn instance(url: &str, lab: &TaskLab, lease: Duration) -> Server<TaskLab> {
    let store = RedisTaskStore::connect(url)
        .await
        .expect("connects to redis");
    Server::new(lab.clone())
        .task_store(store)
        .task_poll_interval(Duration::from_millis(25))
        .task_lease(lease)
}

async fn client(server: Server<TaskLab>) -> TestClient {
    TestClient::modern(server)
        .capabilities(ClientCapabilities::with_elicitation_form())
        .with_tasks()
        .script(Script::new())
        .connect()
        .await
        .expect("connects")
}

/// Polls `tasks/get` through `c` until `status` (at most 5 s).
async fn wait_for(c: &TestClient, id: &str, status: &str) -> Value {
    let mut last = Value::Null;
    for _ in 0..250 {
        last = c.tasks_get(id).await.expect("tasks/get");
        if last["status"] == status {
            return last;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the task never reached {status}: {last}");
}

#[tokio::test]
async fn a_task_created_on_one_instance_is_answered_and_finished_through_another() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let lab = TaskLab::default();
    let a = client(instance(&redis.url(), &lab, Duration::from_secs(30)).await).await;
    let b = client(instance(&redis.url(), &lab, Duration::from_secs(30)).await).await;
    let call = a.call_tool("ask", json!({})).await.unwrap();
    let id = call.task_id().expect("a task").to_owned();
    let t = wait_for(&b, &id, "input_required").await;
    assert_eq!(
        t["inputRequests"]["confirm"]["method"],
        "elicitation/create"
    );
    let answer = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    b.tasks_update(&id, answer).await.unwrap();
    let done = wait_for(&b, &id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "confirm: true");
    assert_eq!(a.tasks_get(&id).await.unwrap()["status"], "completed");
}

#[tokio::test]
async fn a_cancel_through_another_instance_drops_the_future_where_it_runs() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let lab = TaskLab::default();
    let a = client(instance(&redis.url(), &lab, Duration::from_secs(30)).await).await;
    let b = client(instance(&redis.url(), &lab, Duration::from_secs(30)).await).await;
    let id = a
        .call_tool("slow", json!({"seconds": 60}))
        .await
        .unwrap()
        .task_id()
        .expect("a task")
        .to_owned();
    b.tasks_cancel(&id).await.unwrap();
    wait_for(&a, &id, "cancelled").await;
    for _ in 0..100 {
        if lab.probe.slow_dropped.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        lab.probe.slow_dropped.load(Ordering::SeqCst),
        "dropped on A"
    );
    assert!(!lab.probe.slow_finished.load(Ordering::SeqCst));
}

#[test]
fn a_killed_instance_leaves_its_task_failed_once_the_lease_lapsed() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let url = redis.url();
    let lab = TaskLab::default();
    // Instance A lives on a runtime of its own; dropping it stops A's runner mid-task with no
    // shutdown path, as a killed process does.
    let a_rt = tokio::runtime::Runtime::new().unwrap();
    let id = a_rt.block_on(async {
        let a = client(instance(&url, &lab, Duration::from_millis(1500)).await).await;
        let call = a.call_tool("slow", json!({"seconds": 60})).await.unwrap();
        let id = call.task_id().expect("a task").to_owned();
        assert_eq!(a.tasks_get(&id).await.unwrap()["status"], "working");
        // Never closed: a client that hangs up lets the server shut down gracefully, which
        // would settle the task itself. A crash gives no such chance.
        std::mem::forget(a);
        id
    });
    drop(a_rt);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let b = client(instance(&url, &lab, Duration::from_secs(30)).await).await;
        // Within the lease the task still reads as working (nobody can tell yet)...
        assert_eq!(b.tasks_get(&id).await.unwrap()["status"], "working");
        // ...and once it lapsed, failed, with the reason.
        let t = wait_for(&b, &id, "failed").await;
        assert_eq!(t["statusMessage"], LAPSED_MESSAGE);
        assert_eq!(t["error"]["code"], -32603);
        assert!(!lab.probe.slow_finished.load(Ordering::SeqCst));
    });
}

/// The params of every `notifications/tasks` `c` received for `id`.
fn told(c: &TestClient, id: &str) -> Vec<Value> {
    c.transcript()
        .into_iter()
        .filter(|f| {
            f.message["method"] == "notifications/tasks" && f.message["params"]["taskId"] == id
        })
        .map(|f| f.message["params"].clone())
        .collect()
}

/// Waits (at most 5 s) until `c` was told `id` reached `status`.
async fn told_status(c: &TestClient, id: &str, status: &str) -> Value {
    for _ in 0..250 {
        if let Some(p) = told(c, id).into_iter().find(|p| p["status"] == status) {
            return p;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("never told {status}: {:?}", told(c, id));
}

#[tokio::test]
async fn a_listener_on_another_instance_hears_the_task_from_the_store() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let lab = TaskLab::default();
    let a = client(instance(&redis.url(), &lab, Duration::from_secs(30)).await).await;
    let b = client(instance(&redis.url(), &lab, Duration::from_secs(30)).await).await;
    let id = a
        .call_tool("ask", json!({}))
        .await
        .unwrap()
        .task_id()
        .expect("a task")
        .to_owned();
    let listen = json!({"jsonrpc": "2.0", "id": 9, "method": "subscriptions/listen",
        "params": {"_meta": b.request_meta(), "notifications": {"taskIds": [id]}}});
    b.raw_line(&listen.to_string()).await;
    // B runs nothing of the task: what it tells, it read from Redis.
    let waiting = told_status(&b, &id, "input_required").await;
    assert_eq!(
        waiting["inputRequests"]["confirm"]["method"],
        "elicitation/create"
    );
    let answer = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    a.tasks_update(&id, answer).await.unwrap();
    let done = told_status(&b, &id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "confirm: true");
    assert_eq!(done["_meta"]["io.modelcontextprotocol/subscriptionId"], 9);
    b.assert_valid();
}
