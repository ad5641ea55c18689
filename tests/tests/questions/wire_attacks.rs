//! Answers that break the wire rather than the form (issue 12), at both revisions: duplicate
//! keys, a malformed 2025-11-25 response, an answer over the size limit.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Revision, code};
use rondo_mcp::testing::{Direction, Reply, Script, TestClient};
use rondo_tests::attacks::{server, shop};
use serde_json::{Value, json};

async fn client(
    server: Server<Router>,
    rev: Revision,
    caps: ClientCapabilities,
    script: Script,
) -> TestClient {
    TestClient::builder(server, rev)
        .capabilities(caps)
        .script(script)
        .connect()
        .await
        .expect("connects")
}

/// A 2025-11-25 client that leaves the server's question unanswered, so the test answers it
/// with `line` (its `ID` replaced by the question's id); returns the call's end and the client.
async fn answer_legacy_with(
    line: &str,
    skip: &[&str],
) -> (Result<rondo_mcp::testing::Call, Error>, TestClient) {
    let mut b = TestClient::legacy(shop())
        .capabilities(ClientCapabilities::with_elicitation_form())
        .script(Script::new().elicit(Reply::Ignore))
        .timeout(std::time::Duration::from_secs(5));
    for def in skip {
        b = b.skip_validation_of(
            def,
            "answers the server's question with a malformed response, on purpose",
        );
    }
    let c = b.connect().await.unwrap();
    let answer = async {
        loop {
            let asked = c.transcript().into_iter().find(|f| {
                f.direction == Direction::Received && f.message["method"] == "elicitation/create"
            });
            if let Some(f) = asked {
                let id = f.message["id"].to_string();
                c.raw_line(&line.replace("ID", &id)).await;
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    };
    let (out, ()) = tokio::join!(
        c.call_tool("buy", json!({"item": "tea", "quantity": 1})),
        answer
    );
    (out, c)
}

/// Nothing the server sent after the question carries the question's own id.
fn no_answer_to_the_answer(c: &TestClient) {
    let ids: Vec<Value> = c
        .transcript()
        .into_iter()
        .filter(|f| {
            f.direction == Direction::Received && f.message["method"] == "elicitation/create"
        })
        .map(|f| f.message["id"].clone())
        .collect();
    for f in c.transcript() {
        if f.direction == Direction::Received && f.message.get("method").is_none() {
            assert!(
                !ids.contains(&f.message["id"]),
                "the server answered the client's answer: {}",
                f.line
            );
        }
    }
}

#[tokio::test]
async fn duplicate_keys_in_a_2025_answer_fail_the_question() {
    for (line, key) in [
        (
            r#"{"jsonrpc":"2.0","id":ID,"result":{"action":"decline","action":"accept","content":{"approve":true}}}"#,
            "action",
        ),
        (
            r#"{"jsonrpc":"2.0","id":ID,"result":{"action":"accept","content":{"approve":false,"approve":true}}}"#,
            "approve",
        ),
    ] {
        let (out, c) = answer_legacy_with(line, &[]).await;
        let call = out.unwrap();
        assert!(call.is_error(), "{line}: {}", call.text());
        assert!(
            call.text().contains(&format!("has the key `{key}` twice")),
            "{line}: {}",
            call.text()
        );
        no_answer_to_the_answer(&c);
    }
}

/// What a malformed response breaks.
const MALFORMED: &[&str] = &[
    "JSONRPCErrorResponse",
    "JSONRPCMessage",
    "JSONRPCResponse",
    "JSONRPCResultResponse",
];

#[tokio::test]
async fn a_malformed_2025_answer_fails_the_question_at_once_and_is_not_answered() {
    for line in [
        r#"{"jsonrpc":"2.0","id":ID,"error":"nope"}"#,
        r#"{"jsonrpc":"2.0","id":ID}"#,
        r#"{"jsonrpc":"2.0","id":ID,"result":{"action":"accept"},"error":{"code":-1,"message":"no"}}"#,
        r#"{"jsonrpc":"1.0","id":ID,"result":{"action":"accept","content":{"approve":true}}}"#,
    ] {
        let (out, c) = answer_legacy_with(line, MALFORMED).await;
        let call = out.unwrap_or_else(|e| panic!("{line}: {e:?}"));
        assert!(call.is_error(), "{line}: {}", call.text());
        assert!(
            call.text().starts_with("Could not ask `confirm`: "),
            "{line}: {}",
            call.text()
        );
        no_answer_to_the_answer(&c);
    }
}

/// A 2026-07-28 retry of `buy` carrying `responses` as written (raw JSON text).
async fn retry_with(responses: &str) -> Value {
    let c = client(
        shop(),
        Revision::V2026_07_28,
        ClientCapabilities::with_elicitation_form(),
        Script::new(),
    )
    .await;
    let first = c
        .request(
            "tools/call",
            json!({"name": "buy", "arguments": {"item": "tea", "quantity": 1}}),
        )
        .await
        .unwrap();
    let state = first["requestState"].to_string();
    let meta = c.request_meta().to_string();
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{{"name":"buy","arguments":{{"item":"tea","quantity":1}},"_meta":{meta},"requestState":{state},"inputResponses":{responses}}}}}"#
    );
    c.raw_line(&line).await;
    for _ in 0..200 {
        if let Some(f) = c
            .transcript()
            .into_iter()
            .find(|f| f.direction == Direction::Received && f.message["id"] == 77)
        {
            return f.message;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    panic!("no answer to the retry");
}

#[tokio::test]
async fn duplicate_keys_in_a_2026_retry_are_refused() {
    for (responses, key) in [
        (
            r#"{"confirm":{"action":"decline","action":"accept","content":{"approve":true}}}"#,
            "action",
        ),
        (
            r#"{"confirm":{"action":"accept","content":{"approve":false,"approve":true}}}"#,
            "approve",
        ),
        (
            r#"{"confirm":{"action":"decline"},"confirm":{"action":"accept","content":{"approve":true}}}"#,
            "confirm",
        ),
    ] {
        let answer = retry_with(responses).await;
        assert_eq!(
            answer["error"]["code"],
            code::INVALID_PARAMS,
            "{responses}: {answer}"
        );
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("has the key `{key}` twice")),
            "{message}"
        );
    }
    // The same retry without the duplicate places the order.
    let answer = retry_with(r#"{"confirm":{"action":"accept","content":{"approve":true}}}"#).await;
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "Bought 1 x tea, Standard delivery."
    );
}

#[tokio::test]
async fn an_answer_over_the_size_limit_fails_its_question_at_once_on_2025_stdio() {
    let huge = "x".repeat(100_000);
    // A sampling answer: the fallback, at once (not after `ask_timeout`).
    let c = TestClient::legacy(server().max_message_bytes(65_536))
        .capabilities(ClientCapabilities::with_sampling())
        .script(Script::new().sample(Reply::sample_text(&huge)))
        .timeout(std::time::Duration::from_secs(5))
        .connect()
        .await
        .unwrap();
    let call = c
        .call_tool("summarize", json!({"text": "one two three four"}))
        .await
        .unwrap();
    assert_eq!(call.text(), "one two three...");
    no_answer_to_the_answer(&c);
    // A form answer: a failure naming the limit.
    let c = TestClient::legacy(shop().max_message_bytes(65_536))
        .capabilities(ClientCapabilities::with_elicitation_form())
        .script(Script::new().elicit(Reply::accept(json!({"approve": true, "note": huge}))))
        .timeout(std::time::Duration::from_secs(5))
        .connect()
        .await
        .unwrap();
    let call = c
        .call_tool("buy", json!({"item": "tea", "quantity": 1}))
        .await
        .unwrap();
    assert_eq!(
        call.text(),
        "Could not ask `confirm`: the answer is larger than the limit of 65536 bytes"
    );
    no_answer_to_the_answer(&c);
}
