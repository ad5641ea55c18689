//! How a test client's conversation ends and what it shows on the way: a server in a child
//! process (`TestClient::spawn`) must exit, successfully and in time, when the client closes its
//! input (`TestClient::close`); an in-memory server must stop serving; `echo` is shown every line
//! the transcript holds, in its order; `initialize_result` is the 2025-11-25 handshake's answer.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::{CloseError, Frame, Reply, Script, TestClient};
use rondo_tests::servers::Hand;
use serde_json::json;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::process::Command;

/// `sh -c script`, with stderr discarded.
fn sh(script: &str) -> Command {
    let mut c = Command::new("sh");
    c.args(["-c", script]).stderr(std::process::Stdio::null());
    c
}

/// A client at 2026-07-28 (no handshake, so any child will do) of `sh -c script`.
async fn child(script: &str, timeout: Duration) -> TestClient {
    TestClient::spawn(Revision::V2026_07_28, &mut sh(script))
        .expect("sh starts")
        .timeout(timeout)
        .connect()
        .await
        .expect("no handshake to fail")
}

#[tokio::test]
async fn a_child_that_exits_when_its_input_closes_closes_cleanly() {
    let c = child("cat >/dev/null", Duration::from_secs(10)).await;
    c.close().await.expect("the child exited with 0");
}

#[tokio::test]
async fn a_child_that_exits_unsuccessfully_is_an_error_naming_its_status() {
    let c = child("cat >/dev/null; exit 3", Duration::from_secs(10)).await;
    match c.close().await {
        Err(CloseError::Exit(status)) => assert_eq!(status.code(), Some(3)),
        other => panic!("expected the exit status, got {other:?}"),
    }
}

#[tokio::test]
async fn a_child_that_does_not_exit_is_killed_at_the_timeout() {
    let c = child("exec sleep 60", Duration::from_millis(300)).await;
    let started = Instant::now();
    let closed = c.close().await;
    assert!(
        matches!(closed, Err(CloseError::Timeout(t)) if t == Duration::from_millis(300)),
        "{closed:?}"
    );
    // Killed and reaped, not waited for.
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let shown = closed.unwrap_err().to_string();
    assert!(shown.contains("did not end within 300ms"), "{shown}");
}

#[tokio::test]
#[should_panic(expected = "no answer to `tools/list`")]
async fn a_child_that_never_answers_fails_the_request_after_the_timeout() {
    let c = child("exec sleep 60", Duration::from_millis(200)).await;
    let _ = c.list_tools().await;
}

#[tokio::test]
async fn a_command_that_cannot_start_is_an_error_at_once() {
    let mut missing = Command::new("/nonexistent/rondo-server");
    let started = TestClient::spawn(Revision::V2025_11_25, &mut missing);
    assert_eq!(
        started.err().map(|e| e.kind()),
        Some(std::io::ErrorKind::NotFound)
    );
}

#[tokio::test]
async fn a_child_that_dies_before_answering_fails_the_handshake_instead_of_hanging() {
    let started = TestClient::spawn(Revision::V2025_11_25, &mut sh("exit 0"))
        .expect("sh starts")
        .connect()
        .await;
    let why = started.err().expect("no initialize result").message;
    assert_eq!(why, "server closed the connection");
}

#[tokio::test]
async fn an_in_memory_server_stops_serving_when_the_client_closes() {
    for builder in [
        TestClient::modern(Server::new(Hand)),
        TestClient::legacy(Server::new(Hand)),
    ] {
        let c = builder.connect().await.unwrap();
        assert_eq!(c.list_tools().await.unwrap().len(), 3);
        c.close().await.expect("serve_io returned Ok");
    }
}

#[tokio::test]
async fn the_echo_is_shown_every_line_of_the_transcript_in_its_order() {
    for revision in [Revision::V2026_07_28, Revision::V2025_11_25] {
        let shown: Arc<Mutex<Vec<Frame>>> = Arc::default();
        let into = shown.clone();
        let c = TestClient::builder(Server::new(Hand), revision)
            .capabilities(ClientCapabilities::with_elicitation_form())
            .script(Script::new().elicit(Reply::accept(json!({"name": "Ada"}))))
            .echo(move |f| into.lock().unwrap().push(f.clone()))
            .connect()
            .await
            .unwrap();
        let call = c.call_tool("greet", json!({})).await.unwrap();
        assert_eq!(call.text(), "Hello, Ada!");
        let transcript = c.transcript();
        // At least the call's two rounds, or the handshake, the call and its question.
        assert!(transcript.len() >= 4, "{transcript:?}");
        assert_eq!(*shown.lock().unwrap(), transcript, "{revision}");
        c.close().await.unwrap();
    }
}

#[tokio::test]
async fn a_frame_shows_who_sent_it_with_its_meta_elided_and_long_lines_cut() {
    let c = TestClient::modern(Server::new(Hand))
        .connect()
        .await
        .unwrap();
    c.call_tool("add", json!({"a": 1, "b": 2})).await.unwrap();
    let t = c.transcript();
    let sent = t[0].to_string();
    assert!(
        sent.starts_with(
            r#"client -> {"id":1,"jsonrpc":"2.0","method":"tools/call","params":{"_meta":"…","#
        ),
        "{sent}"
    );
    assert!(!sent.contains("clientCapabilities"), "{sent}");
    let received = format!("{:.23}", t[1]);
    assert_eq!(received, r#"server -> {"id":1,"jsonrpc":"2.0"…"#);
    let not_json = Frame {
        direction: rondo_mcp::testing::Direction::Received,
        message: serde_json::Value::Null,
        line: "a log line".into(),
    };
    assert_eq!(not_json.to_string(), "server -> a log line");
}

#[tokio::test]
async fn the_handshake_answer_is_kept_at_2025_11_25_only() {
    let legacy = TestClient::legacy(Server::new(Hand))
        .connect()
        .await
        .unwrap();
    let init = legacy.initialize_result().expect("a handshake");
    assert_eq!(init["protocolVersion"], "2025-11-25");
    assert_eq!(init["serverInfo"]["name"], "hand");
    let modern = TestClient::modern(Server::new(Hand))
        .connect()
        .await
        .unwrap();
    assert_eq!(modern.initialize_result(), None);
}
