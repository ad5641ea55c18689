//! `find_best_flight` as a long-running tool (`task = optional`, the tasks extension
//! `io.modelcontextprotocol/tasks`): answered with a task for a 2026-07-28 client that declares
//! the extension, its question to the client's model parked in `tasks/get` and answered through
//! `tasks/update`, with the same result a plain call gives; a plain call for every other client
//! (2026-07-28 without the extension, 2025-11-25 with its real back-channel request); and a
//! search waiting on a slow server-side model provider ended by `tasks/cancel`, the provider's
//! process killed with it.

use crate::common;

use common::*;
use rondo_example_travel::Config;
use rondo_example_travel::pick::FlightFallback;
use rondo_example_travel::provider::ModelProvider;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::{Reply, Script, TestClient};
use serde_json::{Value, json};
use std::time::Duration;

const MODEL: &str = r#"{"picks": [{"flight_id": "BCN39", "reason": "Cheapest nonstop."}, {"flight_id": "BCN05", "reason": "Also cheap."}, {"flight_id": "BCN41", "reason": "From Miami."}]}"#;

fn search() -> Value {
    json!({"destination": "Barcelona", "month": "2027-06", "morning_departure": false, "max_stops": 0})
}

fn sampling() -> ClientCapabilities {
    caps(json!({"sampling": {}}))
}

/// What the tool returned, without the envelope a revision or a task adds (`_meta`,
/// `resultType`).
fn outcome(result: &Value) -> Value {
    json!([
        result["content"],
        result["structuredContent"],
        result["isError"]
    ])
}

/// A client at `rev` that declares these capabilities and the tasks extension.
async fn task_client(
    server: Server<Router>,
    rev: Revision,
    declared: ClientCapabilities,
    script: Script,
) -> TestClient {
    TestClient::builder(server, rev)
        .capabilities(declared)
        .with_tasks()
        .script(script)
        .connect()
        .await
        .expect("connects")
}

/// The result of the plain (synchronous) search for a client that can sample.
async fn plain_result() -> Value {
    let (server, _) = travel(Config::default()).await;
    let script = Script::new().sample(Reply::sample_text(MODEL));
    let c = client(server, Revision::V2026_07_28, sampling(), script).await;
    let call = c.call_tool("find_best_flight", search()).await.unwrap();
    assert!(call.task_id().is_none(), "no extension, no task");
    outcome(&call.result)
}

#[tokio::test]
async fn with_the_extension_the_search_is_a_task_whose_question_is_answered_by_update() {
    let (server, _) = travel(Config::default()).await;
    let script = Script::new().sample(Reply::sample_text(MODEL));
    let c = task_client(server, Revision::V2026_07_28, sampling(), script).await;
    let call = c.call_tool("find_best_flight", search()).await.unwrap();
    let id = call
        .task_id()
        .unwrap_or_else(|| panic!("answered with a task: {}", call.result))
        .to_owned();
    assert_eq!(
        call.rounds, 1,
        "the task is the first answer, no multi-round retry"
    );
    let done = c.follow_task(&id).await.unwrap();
    assert!(!done.is_error(), "{}", done.text());
    assert_eq!(
        outcome(&done.result),
        plain_result().await,
        "the same result as a plain call"
    );
    assert_eq!(
        done.result["structuredContent"]["chosen_by"],
        "client_model"
    );
    // The question to the model was parked in tasks/get (inputRequests), and answered by
    // tasks/update: never as a request of its own.
    let asked = asked(&c);
    assert!(!asked.is_empty(), "the model was asked inside the task");
    assert!(asked.iter().all(|(m, _)| m == "sampling/createMessage"));
    let updates = c
        .transcript()
        .into_iter()
        .filter(|f| f.message["method"] == "tasks/update")
        .count();
    assert_eq!(updates, 1, "one tasks/update answered the one question");
    let task = c.tasks_get(&id).await.unwrap();
    assert_eq!(task["status"], "completed");
    c.assert_valid();
}

#[tokio::test]
async fn without_the_extension_or_at_2025_the_search_is_a_plain_call() {
    // 2026-07-28 without the extension: the same search, by multi-round retry, as before; the
    // server advertises the extension (it has a task tool) but never imposes it.
    let (server, _) = travel(Config::default()).await;
    let script = Script::new().sample(Reply::sample_text(MODEL));
    let c = client(server, Revision::V2026_07_28, sampling(), script).await;
    let discover = c.request("server/discover", json!({})).await.unwrap();
    let extensions = &discover["capabilities"]["extensions"];
    assert!(
        extensions.get("io.modelcontextprotocol/tasks").is_some(),
        "the tasks extension is advertised: {discover}"
    );
    let call = c.call_tool("find_best_flight", search()).await.unwrap();
    assert!(call.task_id().is_none());
    assert_eq!(call.rounds, 2, "one question, one retry");
    assert_eq!(outcome(&call.result), plain_result().await);
    // 2025-11-25 has no tasks: declaring the extension changes nothing, the question is a real
    // server-to-client request.
    let (server, _) = travel(Config::default()).await;
    let script = Script::new().sample(Reply::sample_text(MODEL));
    let legacy = task_client(server, Revision::V2025_11_25, sampling(), script).await;
    let call = legacy
        .call_tool("find_best_flight", search())
        .await
        .unwrap();
    assert!(call.task_id().is_none(), "{}", call.result);
    assert_eq!(outcome(&call.result), plain_result().await);
    let requests: Vec<String> = legacy
        .transcript()
        .into_iter()
        .filter(|f| f.message.get("id").is_some())
        .filter_map(|f| f.message["method"].as_str().map(str::to_owned))
        .filter(|m| m == "sampling/createMessage")
        .collect();
    assert_eq!(requests.len(), 1, "one real sampling/createMessage request");
    legacy.assert_valid();
}

/// Whether process `pid` is gone (or a zombie waiting to be reaped).
fn gone(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

#[tokio::test]
async fn tasks_cancel_ends_a_search_waiting_on_a_slow_provider() {
    // A provider that writes its pid and then takes a minute (the search would rank after
    // PROVIDER_TIMEOUT): the client cannot sample, so the search waits on it inside the task.
    let pidfile = std::env::temp_dir().join(format!("travel-slow-{}.pid", std::process::id()));
    let _ = std::fs::remove_file(&pidfile);
    let line = format!("echo $$ > {}; exec sleep 60", pidfile.display());
    let config = Config {
        fallback: FlightFallback::Provider(ModelProvider::Command(vec![
            "sh".into(),
            "-c".into(),
            line,
        ])),
        ..Config::default()
    };
    let (server, _) = travel(config).await;
    let c = task_client(server, Revision::V2026_07_28, nothing(), Script::new()).await;
    let call = c.call_tool("find_best_flight", search()).await.unwrap();
    let id = call
        .task_id()
        .unwrap_or_else(|| panic!("answered with a task: {}", call.result))
        .to_owned();
    let mut pid = String::new();
    for _ in 0..500 {
        pid = std::fs::read_to_string(&pidfile).unwrap_or_default();
        if !pid.trim().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let pid = pid.trim().to_owned();
    assert!(!pid.is_empty(), "the slow provider started");
    let task = c.tasks_get(&id).await.unwrap();
    assert_eq!(task["status"], "working", "{task}");
    c.tasks_cancel(&id).await.unwrap();
    let task = c.tasks_get(&id).await.unwrap();
    assert_eq!(task["status"], "cancelled", "{task}");
    // The search's future was dropped, and the provider's process with it.
    let mut killed = false;
    for _ in 0..500 {
        if gone(&pid) {
            killed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let _ = std::fs::remove_file(&pidfile);
    assert!(
        killed,
        "the provider's process {pid} was killed with the task"
    );
    c.assert_valid();
}
