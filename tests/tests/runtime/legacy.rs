//! 2025-11-25 back-channel: the same handler code awaits real server-to-client requests.
//! A JSON-RPC error answer is `AskError::Rejected`, silence is `AskError::Timeout` after
//! `Server::ask_timeout`, an ill-shaped answer is `AskError::Invalid`, decline and cancel are
//! answers; `ping` and `logging/setLevel` work; an `initialize` carrying modern `_meta` is a
//! modern request for an unknown method.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{ElicitationCapability, Root, SamplingCapability, code};
use rondo_mcp::testing::{Direction, Reply, Script, TestClient, TestClientBuilder};
use rondo_tests::servers::{Hand, Lab};
use serde_json::json;
use std::time::{Duration, Instant};

fn caps() -> ClientCapabilities {
    ClientCapabilities {
        elicitation: Some(ElicitationCapability {
            form: Some(Default::default()),
            url: Some(Default::default()),
        }),
        sampling: Some(SamplingCapability::default()),
        roots: Some(Default::default()),
        ..Default::default()
    }
}

async fn legacy<H: Handler>(server: Server<H>, script: Script) -> TestClient {
    builder(server, script)
        .connect()
        .await
        .expect("initialize succeeds")
}

fn builder<H: Handler>(server: Server<H>, script: Script) -> TestClientBuilder<H> {
    TestClient::legacy(server)
        .capabilities(caps())
        .script(script)
}

/// The server-to-client requests in the transcript.
fn server_requests(c: &TestClient) -> Vec<serde_json::Value> {
    c.transcript()
        .into_iter()
        .filter(|f| f.direction == Direction::Received)
        .filter(|f| f.message.get("method").is_some() && f.message.get("id").is_some())
        .map(|f| f.message)
        .collect()
}

#[tokio::test]
async fn a_sampling_error_answer_is_rejected() {
    let c = legacy(
        Server::new(Lab::new()),
        Script::new().sample(Reply::Error(Error::new(
            -1,
            "User rejected sampling request",
        ))),
    )
    .await;
    let call = c.call_tool("sample", json!({})).await.unwrap();
    assert_eq!(call.text(), "rejected:-1");
    assert_eq!(server_requests(&c).len(), 1);
}

#[tokio::test]
async fn sampling_and_roots_answers_arrive() {
    let c = legacy(
        Server::new(Lab::new()),
        Script::new()
            .sample(Reply::sample_text("an old pond"))
            .roots(Reply::roots(vec![
                Root {
                    uri: "file:///work/a".into(),
                    name: Some("a".into()),
                },
                Root {
                    uri: "file:///work/b".into(),
                    name: None,
                },
            ])),
    )
    .await;
    let call = c.call_tool("sample", json!({})).await.unwrap();
    assert_eq!(call.text(), "model said: an old pond");
    let call = c.call_tool("roots", json!({})).await.unwrap();
    assert_eq!(call.text(), "roots=file:///work/a,file:///work/b");
    let methods: Vec<_> = server_requests(&c)
        .into_iter()
        .map(|m| m["method"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(methods, ["sampling/createMessage", "roots/list"]);
}

#[tokio::test]
async fn an_unanswered_question_times_out_after_ask_timeout() {
    let c = legacy(
        Server::new(Hand).ask_timeout(Duration::from_millis(150)),
        Script::new().elicit(Reply::Ignore),
    )
    .await;
    let started = Instant::now();
    let call = tokio::time::timeout(Duration::from_secs(10), c.call_tool("greet", json!({})))
        .await
        .expect("the timeout fires well before the test's bound")
        .unwrap();
    assert!(started.elapsed() >= Duration::from_millis(150));
    assert_eq!(call.text(), "Cannot ask: the client did not answer in time");
    // A late answer to the timed-out request is ignored and the server keeps serving.
    let id = server_requests(&c)[0]["id"].clone();
    c.raw_line(
        &json!({"jsonrpc": "2.0", "id": id, "result": {"action": "accept", "content": {"name": "Late"}}})
            .to_string(),
    )
    .await;
    let add = c.call_tool("add", json!({"a": 1, "b": 2})).await.unwrap();
    assert_eq!(add.text(), "3");
}

#[tokio::test]
async fn decline_and_cancel_arrive_as_answers() {
    for (reply, text) in [
        (Reply::Decline, "No name (Decline)."),
        (Reply::Cancel, "No name (Cancel)."),
        (Reply::accept(json!({"name": "Grace"})), "Hello, Grace!"),
    ] {
        let c = legacy(Server::new(Hand), Script::new().elicit(reply)).await;
        let call = c.call_tool("greet", json!({})).await.unwrap();
        assert_eq!((call.text().as_str(), call.rounds), (text, 1));
    }
}

#[tokio::test]
async fn an_ill_shaped_answer_is_invalid() {
    let script = Script::new()
        .elicit(Reply::Raw(json!({"action": "bogus"})))
        .sample(Reply::Raw(json!({"text": "no role, no model"})));
    let why = "the scripted client answers with an ill-shaped result on purpose";
    let c = builder(Server::new(Lab::new()), script)
        .skip_validation_of("ElicitResult", why)
        .skip_validation_of("CreateMessageResult", why)
        .connect()
        .await
        .unwrap();
    let call = c.call_tool("url", json!({})).await.unwrap();
    assert_eq!(call.text(), "invalid");
    let call = c.call_tool("sample", json!({})).await.unwrap();
    assert_eq!(call.text(), "invalid");
}

#[tokio::test]
async fn a_multi_question_tool_runs_in_one_request_with_one_memo_run() {
    let lab = Lab::new();
    let probe = lab.probe.clone();
    let c = legacy(
        Server::new(lab),
        Script::new()
            .elicit(Reply::accept(json!({"value": "one"})))
            .elicit(Reply::accept(json!({"value": "two"}))),
    )
    .await;
    let call = c.call_tool("memo", json!({})).await.unwrap();
    assert_eq!(call.rounds, 1);
    assert_eq!(call.text(), "memo=value-1 step1=one step2=two");
    assert_eq!(probe.memo_runs.load(std::sync::atomic::Ordering::SeqCst), 1);
    // Server ids of the back-channel requests are distinct.
    let ids: Vec<_> = server_requests(&c)
        .into_iter()
        .map(|m| m["id"].clone())
        .collect();
    assert_eq!(ids.len(), 2);
    assert_ne!(ids[0], ids[1]);
}

#[tokio::test]
async fn ping_and_set_level_work() {
    let c = builder(Server::new(Hand), Script::new())
        .skip_validation_of("SetLevelRequest", "sends logging/setLevel without a level")
        .connect()
        .await
        .unwrap();
    assert_eq!(c.request("ping", json!({})).await.unwrap(), json!({}));
    assert_eq!(
        c.request("logging/setLevel", json!({"level": "info"}))
            .await
            .unwrap(),
        json!({})
    );
    let e = c
        .request("logging/setLevel", json!({}))
        .await
        .expect_err("level is required");
    assert_eq!(e.code, code::INVALID_PARAMS);
    // Results of the legacy revision carry no `resultType`.
    let list = c.request("tools/list", json!({})).await.unwrap();
    assert!(list.get("resultType").is_none(), "{list}");
}

#[tokio::test]
async fn an_initialize_carrying_modern_meta_is_an_unknown_modern_method() {
    let modern = TestClient::modern(Server::new(Hand))
        .skip_validation_of(
            "ClientRequest",
            "sends initialize and ping, not 2026-07-28 methods",
        )
        .connect()
        .await
        .unwrap();
    let e = modern
        .request(
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "c", "version": "1"},
            }),
        )
        .await
        .expect_err("-32601");
    assert_eq!(e.code, code::METHOD_NOT_FOUND);
    // No session was opened: a bare legacy request still lacks its modern `_meta`.
    let e = modern
        .raw_request("ping", json!({}))
        .await
        .expect_err("no session");
    assert_eq!(e.code, code::INVALID_PARAMS);

    // Inside a legacy session too: modern `_meta` wins over the method name.
    let old = legacy(Server::new(Hand), Script::new()).await;
    let e = old
        .request(
            "initialize",
            json!({
                "_meta": old_meta_as_modern(),
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "c", "version": "1"},
            }),
        )
        .await
        .expect_err("-32601");
    assert_eq!(e.code, code::METHOD_NOT_FOUND);
    // The legacy session is untouched.
    assert_eq!(old.request("ping", json!({})).await.unwrap(), json!({}));
}

fn old_meta_as_modern() -> serde_json::Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}
