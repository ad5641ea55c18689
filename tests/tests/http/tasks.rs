//! The tasks extension over Streamable HTTP: `Mcp-Name` carries the task id on `tasks/get`,
//! `tasks/update` and `tasks/cancel` (a mismatch or a missing header is `-32020`, 400), and a
//! task belongs to the principal that created it (another gets the unknown-task error, and
//! the task is untouched).

use crate::support::http::*;
use http::StatusCode;
use rondo_mcp::http::HttpConfig;
use rondo_mcp::prelude::*;
use rondo_tests::servers::TaskLab;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;

/// A 2026-07-28 request declaring the tasks extension.
fn tasks_body(id: i64, method: &str, mut params: Value) -> Value {
    let caps = json!({"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}});
    params["_meta"] = meta(caps);
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

async fn as_user(addr: SocketAddr, user: &str, body: &Value) -> (StatusCode, Value) {
    let r = post_modern(addr, body, |h| h.push(("x-user".into(), user.into()))).await;
    (r.status, r.json().await)
}

async fn app() -> AxumApp {
    let server = Server::new(TaskLab::default()).task_poll_interval(Duration::from_millis(20));
    AxumApp::start(server.into_http(HttpConfig::default())).await
}

#[tokio::test]
async fn mcp_name_must_be_the_task_id() {
    let app = app().await;
    let call = tasks_body(
        1,
        "tools/call",
        json!({"name": "slow", "arguments": {"seconds": 60}}),
    );
    let (status, created) = as_user(app.addr, "alice", &call).await;
    assert_eq!(status, StatusCode::OK);
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let get = tasks_body(2, "tasks/get", json!({"taskId": id}));
    let (status, got) = as_user(app.addr, "alice", &get).await;
    assert_eq!(
        (status, got["result"]["taskId"].as_str()),
        (StatusCode::OK, Some(id.as_str()))
    );
    let wrong = post_modern(app.addr, &get, |h| {
        h.retain(|(k, _)| k != "mcp-name");
        h.push(("mcp-name".into(), "sep-2663-wrong-id".into()));
    })
    .await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST);
    assert_eq!(wrong.json().await["error"]["code"], -32020);
    for method in ["tasks/get", "tasks/cancel"] {
        let body = tasks_body(3, method, json!({"taskId": id}));
        let missing = post_modern(app.addr, &body, |h| h.retain(|(k, _)| k != "mcp-name")).await;
        assert_eq!(missing.status, StatusCode::BAD_REQUEST, "{method}");
        assert_eq!(missing.json().await["error"]["code"], -32020);
    }
    // Mcp-Method must match the body as for every request.
    let greet = tasks_body(4, "tools/call", json!({"name": "greet", "arguments": {}}));
    let r = post_modern(app.addr, &greet, |h| {
        h.retain(|(k, _)| k != "mcp-method");
        h.push(("mcp-method".into(), "tasks/get".into()));
    })
    .await;
    assert_eq!(r.json().await["error"]["code"], -32020);
    // A malformed task request is 400, as every malformed request is.
    let bad = tasks_body(6, "tasks/get", json!({"taskId": 7}));
    let r = Checks::new(rondo_mcp::protocol::Revision::V2026_07_28)
        .skip("GetTaskRequest", "sends a number as the task id on purpose")
        .post_modern(app.addr, &bad, |h| h.push(("mcp-name".into(), "7".into())))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(r.json().await["error"]["code"], -32602);
    let cancel = tasks_body(5, "tasks/cancel", json!({"taskId": id}));
    assert_eq!(as_user(app.addr, "alice", &cancel).await.0, StatusCode::OK);
    app.stop().await;
}

#[tokio::test]
async fn another_principal_cannot_see_answer_or_cancel_a_task() {
    let app = app().await;
    let call = tasks_body(1, "tools/call", json!({"name": "ask", "arguments": {}}));
    let (_, created) = as_user(app.addr, "alice", &call).await;
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let answer = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    for body in [
        tasks_body(2, "tasks/get", json!({"taskId": id})),
        tasks_body(
            3,
            "tasks/update",
            json!({"taskId": id, "inputResponses": answer}),
        ),
        tasks_body(4, "tasks/cancel", json!({"taskId": id})),
    ] {
        let (status, r) = as_user(app.addr, "bob", &body).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(r["error"]["code"], -32602);
        assert_eq!(
            r["error"]["message"],
            "Failed to retrieve task: Task not found"
        );
    }
    // Alice's task went on untouched: still waiting for her answer, not cancelled.
    let get = tasks_body(5, "tasks/get", json!({"taskId": id}));
    let mut status = Value::Null;
    for _ in 0..200 {
        status = as_user(app.addr, "alice", &get).await.1["result"]["status"].clone();
        if status == "input_required" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(status, "input_required");
    let update = tasks_body(
        6,
        "tasks/update",
        json!({"taskId": id, "inputResponses": answer}),
    );
    as_user(app.addr, "alice", &update).await;
    let mut done = Value::Null;
    for _ in 0..200 {
        done = as_user(app.addr, "alice", &get).await.1["result"].clone();
        if done["status"] == "completed" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(done["result"]["content"][0]["text"], "confirm: true");
    app.stop().await;
}

#[tokio::test]
async fn a_listen_stream_follows_only_its_principals_tasks() {
    let app = app().await;
    let call = tasks_body(1, "tools/call", json!({"name": "ask", "arguments": {}}));
    let (_, created) = as_user(app.addr, "alice", &call).await;
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let listen = tasks_body(
        2,
        "subscriptions/listen",
        json!({"notifications": {"taskIds": [id]}}),
    );
    // Bob names Alice's task: acknowledged without it, and never told about it.
    let mut bobs = post_modern(app.addr, &listen, |h| {
        h.push(("x-user".into(), "bob".into()))
    })
    .await;
    let ack = bobs.event().await.expect("bob's ack");
    assert_eq!(ack["params"]["notifications"], json!({}));
    let mut alices = post_modern(app.addr, &listen, |h| {
        h.push(("x-user".into(), "alice".into()))
    })
    .await;
    assert_eq!(alices.content_type(), "text/event-stream");
    let ack = alices.event().await.expect("alice's ack");
    assert_eq!(ack["params"]["notifications"], json!({"taskIds": [id]}));
    // Alice hears it as it stands, then each change, until it completes.
    let mut statuses = Vec::new();
    loop {
        let event = bounded("a task notification", alices.event())
            .await
            .expect("an event");
        assert_eq!(event["method"], "notifications/tasks", "{event}");
        let p = &event["params"];
        assert_eq!(p["taskId"], id.as_str());
        assert_eq!(p["_meta"]["io.modelcontextprotocol/subscriptionId"], 2);
        let status = p["status"].as_str().unwrap().to_owned();
        if status == "input_required" {
            let answer = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
            let update = tasks_body(
                3,
                "tasks/update",
                json!({"taskId": id, "inputResponses": answer}),
            );
            as_user(app.addr, "alice", &update).await;
        }
        statuses.push(status.clone());
        if status == "completed" {
            assert_eq!(p["result"]["content"][0]["text"], "confirm: true");
            break;
        }
    }
    assert!(
        statuses.contains(&"input_required".to_owned()),
        "{statuses:?}"
    );
    // Bob's stream stayed silent while Alice heard every change.
    let silent = tokio::time::timeout(Duration::from_millis(200), bobs.event()).await;
    assert!(silent.is_err(), "bob heard {silent:?}");
    drop((alices, bobs));
    app.stop().await;
}
