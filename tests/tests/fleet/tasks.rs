//! Tasks across a fleet: two servers sharing one `RedisTaskStore` (each on its own
//! connection, on a `redis-server` of the test's own). A task created on one is followed (by
//! polling `tasks/get`, or listening with `subscriptions/listen`: what the listener hears it read
//! from the store, within the poll interval) and answered through either while its tool runs on
//! the first, one table of the four ways; it is cancelled through the other; an instance that
//! dies (its tokio runtime dropped, so its runner stops without any shutdown path, as a crash
//! does) leaves the task `failed` once its lease lapsed, never `working`.
#![cfg(feature = "redis")]

use crate::support::redis_server;

use redis_server::RedisServer;
use rondo_mcp::prelude::*;
use rondo_mcp::shared::RedisTaskStore;
use rondo_mcp::tasks::LAPSED_MESSAGE;
use rondo_mcp::testing::{Script, TestClient};
use rondo_tests::servers::TaskLab;
use serde_json::{Value, json};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The lease of the instances that do not die.
const LEASE: Duration = Duration::from_secs(30);

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

/// Two instances on one store (a `redis-server` of the fleet's own) serving one lab, and a
/// client of each.
struct Fleet {
    a: TestClient,
    b: TestClient,
    lab: TaskLab,
    /// Last: the clients and their servers go before the store they use.
    _redis: RedisServer,
}

/// A fleet, or `None` when `redis-server` is not installed (and `CI` is not set).
async fn fleet() -> Option<Fleet> {
    let redis = RedisServer::start()?;
    let lab = TaskLab::default();
    let a = client(instance(&redis.url(), &lab, LEASE).await).await;
    let b = client(instance(&redis.url(), &lab, LEASE).await).await;
    Some(Fleet {
        a,
        b,
        lab,
        _redis: redis,
    })
}

/// Calls `tool` through `c`, which answers with a task; its id.
async fn start_task(c: &TestClient, tool: &str, arguments: Value) -> String {
    let call = c.call_tool(tool, arguments).await.unwrap();
    call.task_id().expect("a task").to_owned()
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

/// How instance B, which runs nothing of the task, learns how it stands.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Follow {
    /// `tasks/get` until the status.
    Poll,
    /// `subscriptions/listen` for the task's id (request id 9), then its notifications.
    Listen,
}

/// Through which instance the question is answered.
#[derive(Debug, Clone, Copy)]
enum Through {
    A,
    B,
}

/// Waits until B reads or hears that `id` reached `status`; how it stands then.
async fn reached(follow: Follow, b: &TestClient, id: &str, status: &str) -> Value {
    match follow {
        Follow::Poll => wait_for(b, id, status).await,
        Follow::Listen => told_status(b, id, status).await,
    }
}

#[tokio::test]
async fn a_task_created_on_one_instance_is_followed_answered_and_finished_through_either() {
    let rows = [
        (Follow::Poll, Through::B),
        (Follow::Poll, Through::A),
        (Follow::Listen, Through::A),
        (Follow::Listen, Through::B),
    ];
    for row @ (follow, through) in rows {
        let Some(fleet) = fleet().await else {
            return;
        };
        let (a, b) = (&fleet.a, &fleet.b);
        let id = start_task(a, "ask", json!({})).await;
        if follow == Follow::Listen {
            let listen = json!({"jsonrpc": "2.0", "id": 9, "method": "subscriptions/listen",
                "params": {"_meta": b.request_meta(), "notifications": {"taskIds": [id]}}});
            b.raw_line(&listen.to_string()).await;
        }
        let waiting = reached(follow, b, &id, "input_required").await;
        assert_eq!(
            waiting["inputRequests"]["confirm"]["method"], "elicitation/create",
            "{row:?}"
        );
        let answer = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
        let through = match through {
            Through::A => a,
            Through::B => b,
        };
        through.tasks_update(&id, answer).await.unwrap();
        let done = reached(follow, b, &id, "completed").await;
        assert_eq!(
            done["result"]["content"][0]["text"], "confirm: true",
            "{row:?}"
        );
        if follow == Follow::Listen {
            let subscription = &done["_meta"]["io.modelcontextprotocol/subscriptionId"];
            assert_eq!(subscription, 9, "{row:?}");
        }
        for c in [a, b] {
            assert_eq!(
                c.tasks_get(&id).await.unwrap()["status"],
                "completed",
                "{row:?}"
            );
        }
        b.assert_valid();
    }
}

#[tokio::test]
async fn a_cancel_through_another_instance_drops_the_future_where_it_runs() {
    let Some(fleet) = fleet().await else {
        return;
    };
    let (a, b, lab) = (&fleet.a, &fleet.b, &fleet.lab);
    let id = start_task(a, "slow", json!({"seconds": 60})).await;
    b.tasks_cancel(&id).await.unwrap();
    wait_for(a, &id, "cancelled").await;
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
        let b = client(instance(&url, &lab, LEASE).await).await;
        // Within the lease the task still reads as working (nobody can tell yet)...
        assert_eq!(b.tasks_get(&id).await.unwrap()["status"], "working");
        // ...and once it lapsed, failed, with the reason.
        let t = wait_for(&b, &id, "failed").await;
        assert_eq!(t["statusMessage"], LAPSED_MESSAGE);
        assert_eq!(t["error"]["code"], -32603);
        assert!(!lab.probe.slow_finished.load(Ordering::SeqCst));
    });
}
