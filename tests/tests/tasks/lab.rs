//! What the engine's task tests share: the task lab server (`rondo_tests::servers::TaskLab`)
//! on a short poll interval, a 2026-07-28 client declaring the tasks extension (every message
//! checked against the 2026-07-28 schema merged with the extension's), and the polls of
//! `tasks/get`.

use rondo_mcp::prelude::*;
use rondo_mcp::testing::{Script, TestClient, TestClientBuilder};
use rondo_tests::servers::TaskLab;
use serde_json::Value;
use std::time::Duration;

pub(super) fn builder(server: Server<TaskLab>, script: Script) -> TestClientBuilder<TaskLab> {
    TestClient::modern(server)
        .capabilities(ClientCapabilities::with_elicitation_form())
        .with_tasks()
        .script(script)
}

pub(super) async fn client(server: Server<TaskLab>, script: Script) -> TestClient {
    builder(server, script).connect().await.expect("connects")
}

pub(super) fn server(lab: &TaskLab) -> Server<TaskLab> {
    Server::new(lab.clone()).task_poll_interval(Duration::from_millis(20))
}

pub(super) async fn started(c: &TestClient, tool: &str, args: Value) -> String {
    let call = c.call_tool(tool, args).await.expect("answered");
    call.task_id()
        .unwrap_or_else(|| panic!("{tool} was not answered with a task: {}", call.result))
        .to_owned()
}

/// Polls `tasks/get` until `status` (at most 5 s).
pub(super) async fn wait_for(c: &TestClient, id: &str, status: &str) -> Value {
    for _ in 0..500 {
        let t = c.tasks_get(id).await.expect("tasks/get");
        if t["status"] == status {
            return t;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the task never reached {status}");
}
