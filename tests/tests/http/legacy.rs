//! Streamable HTTP at 2025-11-25 over a real socket: `initialize` mints a session id, a tool's
//! elicitation travels on the POST's SSE stream and the answer is POSTed back, progress and
//! cancellation, the GET stream with list changes, DELETE and 404 afterwards. Every message
//! the server sends is validated against the official 2025-11-25 schema.

use crate::support::http::*;
use http::{Method, StatusCode};
use rondo_mcp::http::HttpConfig;
use rondo_mcp::prelude::*;
use serde_json::{Value, json};

fn req(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

async fn probe() -> Running {
    start(Server::new(Probe::default()), HttpConfig::default()).await
}

#[tokio::test]
async fn elicitation_travels_on_the_post_stream_and_the_answer_is_posted_back() {
    let s = probe().await;
    let session = Session::open(s.addr).await;
    let mut call = session
        .post(&req(
            1,
            "tools/call",
            json!({"name": "greet", "arguments": {}}),
        ))
        .await;
    assert_eq!(call.status, StatusCode::OK);
    assert_eq!(call.content_type(), "text/event-stream");
    let ask = call.event().await.expect("elicitation request");
    assert_eq!(ask["method"], "elicitation/create");
    assert_eq!(ask["params"]["message"], "What is your name?");
    let answer = json!({"jsonrpc": "2.0", "id": ask["id"],
                        "result": {"action": "accept", "content": {"name": "Grace"}}});
    let posted = session.post(&answer).await;
    assert_eq!(posted.status, StatusCode::ACCEPTED);
    let done = call.event().await.expect("final response");
    assert_eq!((text(&done), &done["id"]), ("Hello, Grace!", &json!(1)));
    assert!(
        done["result"].get("resultType").is_none(),
        "no 2026 fields on 2025-11-25"
    );
    assert!(call.event().await.is_none(), "the response ends the stream");
    s.stop().await;
}

#[tokio::test]
async fn plain_results_are_json_and_progress_is_sse() {
    let s = probe().await;
    let session = Session::open(s.addr).await;
    let r = session.post(&req(2, "tools/list", json!({}))).await;
    assert_eq!(r.json().await["result"]["tools"][0]["name"], "add");
    let ping = session.post(&req(3, "ping", json!({}))).await.json().await;
    assert_eq!(ping["result"], json!({}));
    let call = req(
        4,
        "tools/call",
        json!({"name": "progress", "_meta": {"progressToken": "p"}}),
    );
    let events = session.post(&call).await.events().await;
    let methods: Vec<&str> = events
        .iter()
        .map(|e| e["method"].as_str().unwrap_or("response"))
        .collect();
    assert_eq!(
        methods,
        [
            "notifications/progress",
            "notifications/progress",
            "notifications/progress",
            "response"
        ]
    );
    s.stop().await;
}

#[tokio::test]
async fn cancelled_notification_cancels_a_request() {
    let probe = Probe::default();
    let dropped = probe.dropped.arm();
    let s = start(Server::new(probe), HttpConfig::default()).await;
    let session = Session::open(s.addr).await;
    let mut call = session
        .post(&req(
            5,
            "tools/call",
            json!({"name": "hang", "_meta": {"progressToken": 1}}),
        ))
        .await;
    assert_eq!(
        call.event().await.expect("progress")["method"],
        "notifications/progress"
    );
    let cancel =
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}});
    assert_eq!(session.post(&cancel).await.status, StatusCode::ACCEPTED);
    bounded("the handler's future is dropped", dropped)
        .await
        .expect("dropped");
    assert!(
        call.event().await.is_none(),
        "nothing is sent for a cancelled request"
    );
    s.stop().await;
}

#[tokio::test]
async fn get_stream_carries_list_changes_until_delete() {
    let s = probe().await;
    let session = Session::open(s.addr).await;
    let mut stream = session.send(Method::GET, None).await;
    assert_eq!(stream.status, StatusCode::OK);
    assert_eq!(stream.content_type(), "text/event-stream");
    assert_eq!(
        session.send(Method::GET, None).await.status,
        StatusCode::CONFLICT
    );
    let r = session
        .post(&req(6, "tools/call", json!({"name": "change_tools"})))
        .await;
    assert_eq!(text(&r.json().await), "announced");
    // Prompts are served without listChanged: only the tool change arrives.
    let changed = stream.event().await.expect("list_changed");
    assert_eq!(changed["method"], "notifications/tools/list_changed");
    assert_eq!(
        session.send(Method::DELETE, None).await.status,
        StatusCode::OK
    );
    assert!(
        stream.event().await.is_none(),
        "DELETE closes the GET stream"
    );
    s.stop().await;
}

#[tokio::test]
async fn ended_and_missing_sessions() {
    let s = probe().await;
    let session = Session::open(s.addr).await;
    assert_eq!(
        session.send(Method::DELETE, None).await.status,
        StatusCode::OK
    );
    let r = session.post(&req(7, "tools/list", json!({}))).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let e = r.json().await;
    assert_eq!(e["id"], 7);
    assert_eq!(
        session.send(Method::DELETE, None).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        session.send(Method::GET, None).await.status,
        StatusCode::NOT_FOUND
    );
    // A legacy request without a session id: 400.
    let h = [ACCEPT, ("mcp-protocol-version", "2025-11-25")];
    let r = send(
        s.addr,
        request(Method::POST, &h, Some(&req(8, "tools/list", json!({})))),
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    // A live session with an unsupported version header: 400.
    let live = Session::open(s.addr).await;
    let h = [
        ACCEPT,
        ("mcp-session-id", live.id.as_str()),
        ("mcp-protocol-version", "2025-06-18"),
    ];
    let r = send(
        s.addr,
        request(Method::POST, &h, Some(&req(9, "tools/list", json!({})))),
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    s.stop().await;
}

#[tokio::test]
async fn an_answer_over_the_body_limit_fails_its_question_at_once() {
    let s = start(
        Server::new(Probe::default()),
        HttpConfig::default().max_body_bytes(4096),
    )
    .await;
    let session = Session::open(s.addr).await;
    let mut call = session
        .post(&req(
            1,
            "tools/call",
            json!({"name": "greet", "arguments": {}}),
        ))
        .await;
    let ask = call.event().await.expect("elicitation request");
    let answer = json!({"jsonrpc": "2.0", "id": ask["id"],
                        "result": {"action": "accept", "content": {"name": "x".repeat(10_000)}}});
    let posted = session.post(&answer).await;
    assert_eq!(posted.status, StatusCode::PAYLOAD_TOO_LARGE);
    // The question failed at once (not after `ask_timeout`): the tool has answered.
    let done = bounded("the tool's answer", call.event())
        .await
        .expect("final response");
    assert_eq!(done["id"], 1, "{done}");
    assert!(
        text(&done).contains("larger than the limit of 4096 bytes"),
        "{done}"
    );
    s.stop().await;
}

/// A client that leaves while its tool waits for an answer to a question sent on that POST's
/// stream can never answer it: the question fails at once (the tool takes its fallback and
/// ends), and the request's id is free again, instead of both waiting out the 5-minute ask
/// timeout.
#[tokio::test]
async fn a_question_fails_at_once_when_its_client_disconnects() {
    let probe = Probe::default();
    let dropped = probe.dropped.arm();
    let s = start(Server::new(probe), HttpConfig::default()).await;
    let session = Session::open(s.addr).await;
    let call = req(
        1,
        "tools/call",
        json!({"name": "ask_watched", "arguments": {}}),
    );
    let mut r = session.post(&call).await;
    let ask = r.event().await.expect("elicitation request");
    assert_eq!(ask["method"], "elicitation/create");
    drop(r);
    bounded("the tool to end after its client left", dropped)
        .await
        .expect("ended");
    // The id is no longer in flight: the same request may be sent again.
    let again = bounded("the id to be free", async {
        loop {
            let mut r = session.post(&call).await;
            let first = r.event().await.expect("an event");
            if first["method"] == "elicitation/create" {
                return first;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await;
    assert_eq!(again["method"], "elicitation/create");
    s.stop().await;
}

/// DELETE while a tool waits for an answer: the question fails and the tool's future is
/// dropped at once, and its stream ends with nothing more.
#[tokio::test]
async fn a_question_fails_at_once_when_its_session_is_deleted() {
    let probe = Probe::default();
    let dropped = probe.dropped.arm();
    let s = start(Server::new(probe), HttpConfig::default()).await;
    let session = Session::open(s.addr).await;
    let call = req(
        1,
        "tools/call",
        json!({"name": "ask_watched", "arguments": {}}),
    );
    let mut r = session.post(&call).await;
    let ask = r.event().await.expect("elicitation request");
    assert_eq!(ask["method"], "elicitation/create");
    assert_eq!(
        session.send(Method::DELETE, None).await.status,
        StatusCode::OK
    );
    bounded("the tool's future to be dropped", dropped)
        .await
        .expect("dropped");
    assert!(
        r.event().await.is_none(),
        "nothing more for an ended session"
    );
    s.stop().await;
}
