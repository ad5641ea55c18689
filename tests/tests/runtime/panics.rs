//! A panicking handler never takes the server down: a tool's panic becomes an `isError` result,
//! a prompt's or a resource's a `-32603` internal error, and the next request is served. For
//! macro-generated and hand-written handlers, at both revisions, in memory and over HTTP.

use crate::support::http::*;
use http::StatusCode;
use rondo_mcp::http::HttpConfig;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Revision, code};
use rondo_mcp::testing::TestClient;
use rondo_mcp::{prompt, prompts, resource, resources, tool, tools};
use rondo_tests::servers::Hand;
use serde_json::{Value, json};

/// Adds two integers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Always panics.
#[tool]
async fn explode() -> String {
    panic!("the tool exploded")
}

/// Always panics.
#[prompt]
async fn doom() -> String {
    panic!("the prompt exploded")
}

/// Always panics.
#[resource("note://doom", mime_type = "text/plain")]
async fn doomed_note() -> ResourceContents {
    panic!("the resource exploded")
}

fn server() -> Server<Router> {
    let router = Router::new(ServerInfo::new("fragile", "1.0.0"))
        .tools(tools![add, explode])
        .prompts(prompts![doom])
        .resources(resources![doomed_note]);
    Server::new(router)
}

const TOOL_FAILED: &str = "Tool `explode` failed with an internal error";
const HANDLER_FAILED: &str = "The handler failed with an internal error";

#[tokio::test]
async fn macro_generated_handlers_that_panic_at_both_revisions() {
    for rev in [Revision::V2026_07_28, Revision::V2025_11_25] {
        let c = TestClient::builder(server(), rev).connect().await.unwrap();
        let call = c.call_tool("explode", json!({})).await.unwrap();
        assert!(call.is_error(), "{rev}");
        assert_eq!(
            call.text(),
            TOOL_FAILED,
            "{rev}: the panic message stays in the log"
        );
        for (method, params) in [
            ("prompts/get", json!({"name": "doom"})),
            ("resources/read", json!({"uri": "note://doom"})),
        ] {
            let e = c.request(method, params).await.expect_err("an error");
            assert_eq!(
                (e.code, e.message.as_str()),
                (code::INTERNAL_ERROR, HANDLER_FAILED),
                "{rev} {method}"
            );
        }
        let sum = c.call_tool("add", json!({"a": 2, "b": 3})).await.unwrap();
        assert_eq!(sum.text(), "5", "{rev}: still serving");
    }
}

#[tokio::test]
async fn a_hand_written_tool_that_panics_at_both_revisions() {
    for rev in [Revision::V2026_07_28, Revision::V2025_11_25] {
        let c = TestClient::builder(Server::new(Hand), rev)
            .connect()
            .await
            .unwrap();
        let call = c.call_tool("boom", json!({})).await.unwrap();
        assert!(call.is_error(), "{rev}");
        assert_eq!(call.text(), "Tool `boom` failed with an internal error");
        let sum = c.call_tool("add", json!({"a": 2, "b": 3})).await.unwrap();
        assert_eq!(sum.text(), "5", "{rev}: still serving");
    }
}

/// Calls the panicking tool, prompt and resource, then `add`, checking each answer: `body`
/// builds a request body, `post` sends it and returns the HTTP status and the answer.
async fn over_http<F, Fut>(body: impl Fn(i64, &str, Value) -> Value, post: F)
where
    F: Fn(Value) -> Fut,
    Fut: Future<Output = (StatusCode, Value)>,
{
    let (status, r) = post(body(1, "tools/call", json!({"name": "explode"}))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(r["result"]["isError"], true);
    assert_eq!(text(&r), TOOL_FAILED);
    for (id, method, params) in [
        (2, "prompts/get", json!({"name": "doom"})),
        (3, "resources/read", json!({"uri": "note://doom"})),
    ] {
        let (status, e) = post(body(id, method, params)).await;
        assert_eq!(status, StatusCode::OK, "{method}");
        assert_eq!(e["error"]["code"], code::INTERNAL_ERROR, "{method}");
        assert_eq!(e["error"]["message"], HANDLER_FAILED, "{method}");
    }
    let args = json!({"name": "add", "arguments": {"a": 2, "b": 3}});
    let (_, sum) = post(body(4, "tools/call", args)).await;
    assert_eq!(text(&sum), "5", "still serving");
}

#[tokio::test]
async fn handlers_that_panic_over_http_at_2026_07_28() {
    let s = start(server(), HttpConfig::default()).await;
    let addr = s.addr;
    over_http(modern, |body| async move {
        let r = post_modern(addr, &body, |_| {}).await;
        (r.status, r.json().await)
    })
    .await;
    s.stop().await;
}

#[tokio::test]
async fn handlers_that_panic_over_http_at_2025_11_25() {
    let s = start(server(), HttpConfig::default()).await;
    let session = Session::open(s.addr).await;
    let legacy = |id: i64, method: &str, params: Value| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    over_http(legacy, |body| {
        let session = &session;
        async move {
            let r = session.post(&body).await;
            let status = r.status;
            let msg = match r.content_type() {
                "text/event-stream" => r.events().await.pop().expect("the answer"),
                _ => r.json().await,
            };
            (status, msg)
        }
    })
    .await;
    s.stop().await;
}
