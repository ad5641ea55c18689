//! `#[sample]` and `#[roots]` through the in-memory client at both revisions: the capability
//! present, absent, sampling without `sampling.tools`, a rejected and an unparsable answer, an
//! `async` fallback, a fallback that ends the tool, `refuse` (and a huge unusable reply cut in
//! its failure), and roots from the client or from a tool argument.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Error, Revision, Root, code};
use rondo_mcp::testing::{Direction, Reply, Script, TestClient};
use rondo_tests::sampling::server;
use serde_json::{Value, json};

const BOTH: [Revision; 2] = [Revision::V2026_07_28, Revision::V2025_11_25];

fn sampling() -> ClientCapabilities {
    ClientCapabilities::with_sampling()
}

fn sampling_with_tools() -> ClientCapabilities {
    let mut caps = ClientCapabilities::with_sampling();
    if let Some(s) = caps.sampling.as_mut() {
        s.tools = Some(Default::default());
    }
    caps
}

async fn client(rev: Revision, caps: ClientCapabilities, script: Script) -> TestClient {
    TestClient::builder(server(), rev)
        .capabilities(caps)
        .script(script)
        .connect()
        .await
        .expect("connects")
}

/// Every `sampling/createMessage` the server asked (2026-07-28 input requests, 2025-11-25
/// requests).
fn sampling_requests(c: &TestClient) -> Vec<Value> {
    let mut out = Vec::new();
    for f in c.transcript() {
        if f.direction != Direction::Received {
            continue;
        }
        let m = f.message;
        if m["method"] == "sampling/createMessage" {
            out.push(m["params"].clone());
        }
        for req in m["result"]["inputRequests"]
            .as_object()
            .into_iter()
            .flatten()
        {
            if req.1["method"] == "sampling/createMessage" {
                out.push(req.1["params"].clone());
            }
        }
    }
    out
}

#[tokio::test]
async fn the_models_json_answer_is_parsed_into_the_type() {
    for rev in BOTH {
        let answer = "Sure!\n```json\n{\"best\": [\"RX2\", \"RX1\"]}\n```";
        let c = client(
            rev,
            sampling(),
            Script::new().sample(Reply::sample_text(answer)),
        )
        .await;
        let call = c.call_tool("best_flights", json!({})).await.unwrap();
        assert_eq!(
            call.result["structuredContent"],
            json!({"best": ["RX2", "RX1"]}),
            "{rev}"
        );
        let asked = sampling_requests(&c);
        assert_eq!(asked.len(), 1, "{rev}");
        let system = asked[0]["systemPrompt"].as_str().unwrap();
        assert!(
            system.starts_with("You are a booking assistant."),
            "{system}"
        );
        assert!(
            system.contains("JSON Schema") && system.contains("\"best\""),
            "{system}"
        );
        assert_eq!(asked[0]["maxTokens"], 300);
        assert!(asked[0].get("tools").is_none() && asked[0].get("includeContext").is_none());
    }
}

#[tokio::test]
async fn without_sampling_the_deterministic_fallback_answers() {
    for rev in BOTH {
        let c = client(rev, ClientCapabilities::default(), Script::new()).await;
        let call = c.call_tool("best_flights", json!({})).await.unwrap();
        assert_eq!(
            call.result["structuredContent"],
            json!({"best": ["RX2", "RX1"]}),
            "{rev}"
        );
        assert_eq!(call.rounds, 1);
        assert!(sampling_requests(&c).is_empty(), "{rev}: never asked");
    }
}

#[tokio::test]
async fn an_unparsable_answer_takes_the_fallback_without_asking_again() {
    for rev in BOTH {
        let script = Script::new().sample(Reply::sample_text("I'd take the cheap one."));
        let c = client(rev, sampling(), script).await;
        let call = c.call_tool("best_flights", json!({})).await.unwrap();
        assert_eq!(
            call.result["structuredContent"],
            json!({"best": ["RX2", "RX1"]}),
            "{rev}"
        );
        assert_eq!(sampling_requests(&c).len(), 1, "{rev}: asked once");
    }
}

#[tokio::test]
async fn a_rejected_request_takes_the_fallback_on_2025() {
    let reject = Reply::Error(Error::new(-1, "User rejected sampling request"));
    let c = client(
        Revision::V2025_11_25,
        sampling(),
        Script::new().sample(reject),
    )
    .await;
    let call = c.call_tool("best_flights", json!({})).await.unwrap();
    assert_eq!(
        call.result["structuredContent"],
        json!({"best": ["RX2", "RX1"]})
    );
}

#[tokio::test]
async fn text_answers_and_async_fallbacks() {
    for rev in BOTH {
        let script = Script::new().sample(Reply::sample_text("Rust is fast."));
        let c = client(rev, sampling(), script).await;
        let call = c
            .call_tool(
                "summarize",
                json!({"text": "Rust is a fast and safe language"}),
            )
            .await
            .unwrap();
        assert_eq!(call.text(), "Rust is fast.", "{rev}");
        let c = client(rev, ClientCapabilities::default(), Script::new()).await;
        let call = c
            .call_tool(
                "summarize",
                json!({"text": "Rust is a fast and safe language"}),
            )
            .await
            .unwrap();
        assert_eq!(call.text(), "Rust is a...", "{rev}");
    }
}

#[tokio::test]
async fn tools_go_only_to_clients_that_declared_sampling_tools() {
    for rev in BOTH {
        let c = client(rev, sampling(), Script::new()).await;
        let call = c.call_tool("choose", json!({})).await.unwrap();
        assert!(
            sampling_requests(&c).is_empty(),
            "{rev}: no request with tools"
        );
        assert!(
            call.text().contains("\"RX3\""),
            "{rev}: every candidate: {}",
            call.text()
        );
        assert!(!call.is_error());
    }
}

#[tokio::test]
async fn a_client_with_sampling_tools_gets_the_tools_and_the_tool_use_back() {
    for rev in BOTH {
        let reply = Reply::Raw(json!({
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Let me check."},
                {"type": "tool_use", "id": "u1", "name": "lookup_seats", "input": {"number": "RX2"}}
            ],
            "model": "test-model",
            "stopReason": "toolUse"
        }));
        let c = client(rev, sampling_with_tools(), Script::new().sample(reply)).await;
        let call = c.call_tool("choose", json!({})).await.unwrap();
        assert_eq!(
            call.text(),
            "the model called [\"lookup_seats\"] and said: Let me check.",
            "{rev}"
        );
        assert_eq!(sampling_requests(&c)[0]["tools"][0]["name"], "lookup_seats");
    }
}

#[tokio::test]
async fn refuse_names_sampling_at_both_revisions() {
    for rev in BOTH {
        let c = client(rev, ClientCapabilities::default(), Script::new()).await;
        let err = c.call_tool("needs_sampling", json!({})).await.unwrap_err();
        assert_eq!(err.code, code::MISSING_REQUIRED_CLIENT_CAPABILITY, "{rev}");
        assert_eq!(
            err.data.unwrap()["requiredCapabilities"],
            json!({"sampling": {}})
        );
    }
}

#[tokio::test]
async fn roots_come_from_the_client_as_local_paths() {
    for rev in BOTH {
        let roots = vec![
            Root {
                uri: "file:///home/ada/project".into(),
                name: Some("Project".into()),
            },
            Root {
                uri: "https://example.com/not-a-folder".into(),
                name: None,
            },
        ];
        let c = client(
            rev,
            ClientCapabilities::with_roots(),
            Script::new().roots(Reply::roots(roots)),
        )
        .await;
        let call = c.call_tool("folders", json!({})).await.unwrap();
        assert_eq!(call.text(), "/home/ada/project", "{rev}");
    }
}

#[tokio::test]
async fn without_roots_the_folders_come_from_the_argument_or_an_error_says_how() {
    for rev in BOTH {
        let c = client(rev, ClientCapabilities::default(), Script::new()).await;
        let given = c
            .call_tool("folders", json!({"folders": ["/srv/a", "/srv/b"]}))
            .await
            .unwrap();
        assert_eq!(given.text(), "/srv/a, /srv/b", "{rev}");
        let none = c.call_tool("folders", json!({})).await.unwrap();
        assert!(none.is_error(), "{rev}");
        assert!(none.text().contains("pass `folders`"), "{}", none.text());
    }
}

/// A model's reply is quoted only in part when a `refuse` question cannot use it: a
/// megabyte of control characters as the kinds of its content blocks gives the first 100
/// characters of the reason that quotes it, then `…`, at both revisions.
#[tokio::test]
async fn a_huge_unusable_reply_is_cut_in_the_failure() {
    let nasty = "\u{1b}[2J\u{7}\r\n\0\t\u{8}";
    let reply =
        json!({"role": "assistant", "model": "m", "content": [{"type": nasty.repeat(100_000)}]});
    for rev in BOTH {
        let c = TestClient::builder(server(), rev)
            .capabilities(sampling())
            .script(Script::new().sample(Reply::Raw(reply.clone())))
            .skip_validation_of(
                match rev {
                    Revision::V2026_07_28 => "CallToolRequest",
                    _ => "CreateMessageResult",
                },
                "the reply has a content block of no known kind",
            )
            .connect()
            .await
            .expect("connects");
        let call = c.call_tool("needs_sampling", json!({})).await.unwrap();
        assert_eq!(call.result["isError"], true, "{rev}");
        // "it has no text, only " is 21 characters of the 100: 79 of the client's follow.
        assert_eq!(
            call.result["content"][0]["text"],
            format!(
                "Could not ask `capital`: the client's answer could not be used: the model's \
                 reply: it has no text, only {}{}…",
                nasty.repeat(7),
                &nasty[..9]
            ),
            "{rev}"
        );
    }
}
