//! Progress and log notifications are opt-in per request: progress only with a
//! `progressToken`; `notifications/message` on 2026-07-28 only when the request carries
//! `_meta["io.modelcontextprotocol/logLevel"]` (at or above that level), never without it; on
//! 2025-11-25 only after `logging/setLevel`.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Revision, code};
use rondo_mcp::testing::{Direction, TestClient};
use rondo_tests::servers::Lab;
use serde_json::{Value, json};

async fn client(rev: Revision) -> TestClient {
    TestClient::builder(Server::new(Lab::new()), rev)
        .connect()
        .await
        .expect("connects")
}

/// A client for the requests that break the schema on purpose: an unknown log level, and
/// `logging/setLevel` at 2026-07-28.
async fn sloppy_client(rev: Revision) -> TestClient {
    let (def, why) = match rev {
        Revision::V2026_07_28 => ("CallToolRequest", "asks for an unknown logLevel"),
        _ => ("SetLevelRequest", "asks for an unknown level"),
    };
    TestClient::builder(Server::new(Lab::new()), rev)
        .skip_validation_of(def, why)
        .skip_validation_of(
            "ClientRequest",
            "calls logging/setLevel, which 2026-07-28 removed",
        )
        .connect()
        .await
        .expect("connects")
}

/// The notifications with `method` received since transcript index `from`.
fn received(c: &TestClient, from: usize, method: &str) -> Vec<Value> {
    c.transcript()[from..]
        .iter()
        .filter(|f| f.direction == Direction::Received && f.message["method"] == method)
        .map(|f| f.message["params"].clone())
        .collect()
}

fn levels(msgs: &[Value]) -> Vec<&str> {
    msgs.iter().map(|m| m["level"].as_str().unwrap()).collect()
}

/// Calls `chatty` with these `_meta` additions; returns the transcript length before it.
async fn chatty(c: &TestClient, meta: Value) -> usize {
    let from = c.transcript().len();
    let r = c
        .request(
            "tools/call",
            json!({"_meta": meta, "name": "chatty", "arguments": {}}),
        )
        .await
        .expect("chatty completes");
    assert_eq!(r["content"][0]["text"], "done");
    from
}

#[tokio::test]
async fn progress_only_when_the_request_carries_a_token() {
    for rev in [Revision::V2026_07_28, Revision::V2025_11_25] {
        let c = client(rev).await;
        let from = chatty(&c, json!({})).await;
        assert!(
            received(&c, from, "notifications/progress").is_empty(),
            "{rev}"
        );

        for token in [json!("tok-1"), json!(7)] {
            let from = chatty(&c, json!({"progressToken": token})).await;
            let p = received(&c, from, "notifications/progress");
            assert_eq!(p.len(), 2, "{rev}");
            assert!(p.iter().all(|n| n["progressToken"] == token));
            assert!(p[0]["progress"].as_f64() < p[1]["progress"].as_f64());
            // The notifications precede the response on the stream.
            let t = c.transcript();
            let resp = t
                .iter()
                .rposition(|f| f.message.get("result").is_some())
                .unwrap();
            let last_progress = t
                .iter()
                .rposition(|f| f.message["method"] == "notifications/progress")
                .unwrap();
            assert!(last_progress < resp);
        }
    }
}

#[tokio::test]
async fn modern_log_messages_only_for_a_request_that_opts_in() {
    let c = client(Revision::V2026_07_28).await;
    let from = chatty(&c, json!({})).await;
    assert!(
        received(&c, from, "notifications/message").is_empty(),
        "never without logLevel"
    );
    for (level, expect) in [
        ("warning", vec!["warning", "error"]),
        ("debug", vec!["debug", "info", "warning", "error"]),
        ("error", vec!["error"]),
        ("emergency", vec![]),
    ] {
        let from = chatty(&c, json!({"io.modelcontextprotocol/logLevel": level})).await;
        let msgs = received(&c, from, "notifications/message");
        assert_eq!(levels(&msgs), expect, "logLevel {level}");
        assert!(msgs.iter().all(|m| m["logger"] == "lab"));
    }
    // The opt-in is per request: the next request without it gets nothing.
    let from = chatty(&c, json!({})).await;
    assert!(received(&c, from, "notifications/message").is_empty());

    let sloppy = sloppy_client(Revision::V2026_07_28).await;
    let e = sloppy
        .request(
            "tools/call",
            json!({"_meta": {"io.modelcontextprotocol/logLevel": "loud"}, "name": "chatty"}),
        )
        .await
        .expect_err("an unknown level is invalid params");
    assert_eq!(e.code, code::INVALID_PARAMS);
    // logging/setLevel does not exist at 2026-07-28, and turns nothing on.
    let e = sloppy
        .request("logging/setLevel", json!({"level": "debug"}))
        .await
        .expect_err("removed method");
    assert_eq!(e.code, code::METHOD_NOT_FOUND);
    let from = chatty(&sloppy, json!({})).await;
    assert!(received(&sloppy, from, "notifications/message").is_empty());
}

#[tokio::test]
async fn legacy_log_messages_only_after_set_level() {
    let c = client(Revision::V2025_11_25).await;
    let from = chatty(&c, json!({})).await;
    assert!(received(&c, from, "notifications/message").is_empty());
    // A modern per-request opt-in means nothing in a 2025-11-25 session.
    let from = chatty(&c, json!({"io.modelcontextprotocol/logLevel": "debug"})).await;
    assert!(received(&c, from, "notifications/message").is_empty());

    let r = c
        .request("logging/setLevel", json!({"level": "warning"}))
        .await
        .unwrap();
    assert_eq!(r, json!({}));
    let from = chatty(&c, json!({})).await;
    assert_eq!(
        levels(&received(&c, from, "notifications/message")),
        ["warning", "error"]
    );
    c.request("logging/setLevel", json!({"level": "debug"}))
        .await
        .unwrap();
    let from = chatty(&c, json!({})).await;
    assert_eq!(
        levels(&received(&c, from, "notifications/message")),
        ["debug", "info", "warning", "error"]
    );
    let e = sloppy_client(Revision::V2025_11_25)
        .await
        .request("logging/setLevel", json!({"level": "loud"}))
        .await
        .expect_err("unknown level");
    assert_eq!(e.code, code::INVALID_PARAMS);
}
