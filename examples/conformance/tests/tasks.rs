//! The tools of the suite's `tasks-*` scenarios, over the in-memory client at 2026-07-28 with
//! the tasks extension declared (and without it), every message checked against the schemas
//! (2026-07-28 with the extension's definitions merged).

use rondo_example_conformance::server;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::code;
use rondo_mcp::testing::{Reply, Script, TestClient};
use serde_json::json;

async fn tasks_client(script: Script) -> TestClient {
    TestClient::modern(server())
        .capabilities(ClientCapabilities::with_elicitation_form())
        .with_tasks()
        .script(script)
        .connect()
        .await
        .unwrap()
}

/// Calls `tool` and follows its task to the end.
async fn run(c: &TestClient, tool: &str, args: serde_json::Value) -> Result<String, Error> {
    let call = c.call_tool(tool, args).await?;
    let id = call
        .task_id()
        .unwrap_or_else(|| panic!("{tool}: no task: {}", call.result));
    let done = c.follow_task(id).await?;
    Ok(if done.is_error() {
        format!("error: {}", done.text())
    } else {
        done.text()
    })
}

#[tokio::test]
async fn each_tasks_fixture_ends_as_the_suite_expects() {
    let script = Script::new()
        .keyed(
            "elicitation/create",
            "confirm",
            Reply::accept(json!({"confirm": true})),
        )
        .keyed(
            "elicitation/create",
            "confirm",
            Reply::accept(json!({"confirm": true})),
        )
        .keyed(
            "elicitation/create",
            "name",
            Reply::accept(json!({"name": "partial-1", "confirm": true})),
        )
        .keyed(
            "elicitation/create",
            "user_name",
            Reply::accept(json!({"name": "Alice"})),
        );
    let c = tasks_client(script).await;
    let greet = c
        .call_tool("greet", json!({"name": "sep-2243"}))
        .await
        .unwrap();
    assert_eq!(greet.text(), "Hello, sep-2243!");
    assert!(greet.task_id().is_none(), "greet is never a task");
    assert_eq!(
        run(&c, "slow_compute", json!({"seconds": 0}))
            .await
            .unwrap(),
        "Computed after 0 s"
    );
    assert_eq!(
        run(&c, "failing_job", json!({})).await.unwrap(),
        "error: The job failed, as this test job always does"
    );
    let e = run(&c, "protocol_error_job", json!({})).await.unwrap_err();
    assert_eq!(e.code, -32000, "an application error, not an internal one");
    assert_eq!(
        run(&c, "confirm_delete", json!({"filename": "a.txt"}))
            .await
            .unwrap(),
        "Deleted a.txt"
    );
    assert_eq!(
        run(&c, "multi_input", json!({})).await.unwrap(),
        "name=partial-1, confirmed=true"
    );
    // Asked by a multi-round retry first, then a task.
    let call = c.call_tool("test_tool_with_task", json!({})).await.unwrap();
    assert_eq!(call.rounds, 2, "one question by rounds before the task");
    let id = call.task_id().expect("a task after the question");
    assert_eq!(
        c.follow_task(id).await.unwrap().text(),
        "Hello, Alice! (async)"
    );
}

#[tokio::test]
async fn without_the_extension_optional_tools_answer_at_once_and_required_ones_refuse() {
    let c = TestClient::modern(server()).connect().await.unwrap();
    let call = c
        .call_tool("slow_compute", json!({"seconds": 0}))
        .await
        .unwrap();
    assert_eq!(call.text(), "Computed after 0 s");
    for tool in ["failing_job", "test_tool_with_task"] {
        let e = c.call_tool(tool, json!({})).await.unwrap_err();
        assert_eq!(e.code, code::MISSING_REQUIRED_CLIENT_CAPABILITY, "{tool}");
    }
    // 2025-11-25 has no tasks: the same, over a session.
    let legacy = TestClient::legacy(server()).connect().await.unwrap();
    let call = legacy
        .call_tool("slow_compute", json!({"seconds": 0}))
        .await
        .unwrap();
    assert_eq!(call.text(), "Computed after 0 s");
    let e = legacy
        .call_tool("failing_job", json!({}))
        .await
        .unwrap_err();
    assert_eq!(e.code, code::MISSING_REQUIRED_CLIENT_CAPABILITY);
}
