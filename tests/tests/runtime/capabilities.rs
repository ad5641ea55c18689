//! Client capabilities decide what may be asked, in both revisions: an undeclared question is
//! `AskError::Unsupported` and nothing goes on the wire; URL mode needs `elicitation.url`;
//! `elicitation: {}` is form; tool-enabled sampling needs `sampling.tools`; `Cx::require`
//! answers `-32021` with `data.requiredCapabilities` as an object.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{ElicitationCapability, Revision, SamplingCapability, code};
use rondo_mcp::testing::{Reply, Script, TestClient};
use rondo_tests::servers::{Hand, Lab};
use serde_json::{Value, json};

const BOTH: [Revision; 2] = [Revision::V2026_07_28, Revision::V2025_11_25];

async fn client<H: Handler>(
    server: Server<H>,
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

/// Nothing that asks the client anything was sent: no `inputRequests`, no server request.
fn assert_nothing_asked(c: &TestClient) {
    for f in c.transcript() {
        if f.direction != rondo_mcp::testing::Direction::Received {
            continue;
        }
        let m = &f.message;
        assert!(
            m.get("method").is_none() || m.get("id").is_none(),
            "server-to-client request sent: {m}"
        );
        assert_ne!(m["result"]["resultType"], "input_required", "{m}");
    }
}

fn all_caps() -> ClientCapabilities {
    ClientCapabilities {
        elicitation: Some(ElicitationCapability {
            form: Some(Default::default()),
            url: Some(Default::default()),
        }),
        sampling: Some(SamplingCapability {
            context: Some(Default::default()),
            tools: Some(Default::default()),
        }),
        roots: Some(Default::default()),
        ..Default::default()
    }
}

#[tokio::test]
async fn without_elicitation_the_ask_is_unsupported_and_nothing_is_sent() {
    for rev in BOTH {
        let c = client(
            Server::new(Hand),
            rev,
            ClientCapabilities::default(),
            Script::new(),
        )
        .await;
        let call = c.call_tool("greet", json!({})).await.unwrap();
        assert_eq!(call.rounds, 1);
        assert_eq!(
            call.text(),
            "Cannot ask: the client did not declare the elicitation capability"
        );
        assert_nothing_asked(&c);
    }
}

#[tokio::test]
async fn every_undeclared_question_kind_is_unsupported() {
    for rev in BOTH {
        let c = client(
            Server::new(Lab::new()),
            rev,
            ClientCapabilities::default(),
            Script::new(),
        )
        .await;
        for (tool, text) in [
            ("sample", r#"unsupported:{"sampling":{}}"#),
            ("sample_tools", r#"unsupported:{"sampling":{"tools":{}}}"#),
            ("roots", r#"unsupported:{"roots":{}}"#),
            ("url", r#"unsupported:{"elicitation":{"url":{}}}"#),
        ] {
            let call = c.call_tool(tool, json!({})).await.unwrap();
            assert_eq!(call.text(), text, "{rev} {tool}");
        }
        assert_nothing_asked(&c);
    }
}

#[tokio::test]
async fn url_mode_needs_elicitation_url() {
    for rev in BOTH {
        let form_only = client(
            Server::new(Lab::new()),
            rev,
            ClientCapabilities::with_elicitation_form(),
            Script::new(),
        )
        .await;
        let call = form_only.call_tool("url", json!({})).await.unwrap();
        assert_eq!(call.text(), r#"unsupported:{"elicitation":{"url":{}}}"#);
        assert_nothing_asked(&form_only);

        let url = client(
            Server::new(Lab::new()),
            rev,
            ClientCapabilities::with_elicitation_url(),
            Script::new().elicit(Reply::Accept(None)),
        )
        .await;
        let call = url.call_tool("url", json!({})).await.unwrap();
        assert_eq!(call.text(), "url=Accept", "{rev}");
        let asked = url
            .transcript()
            .into_iter()
            .find_map(|f| {
                let m = f.message;
                m["result"]["inputRequests"]["connect"]
                    .get("params")
                    .or_else(|| (m["method"] == "elicitation/create").then(|| &m["params"]))
                    .cloned()
            })
            .expect("the URL question went out");
        assert_eq!(asked["mode"], "url");
        assert_eq!(asked["url"], "https://example.com/connect");
        // 2025-11-25 requires an `elicitationId`; 2026-07-28 removed it.
        assert_eq!(
            asked["elicitationId"].is_string(),
            !rev.is_modern(),
            "{rev}: {asked}"
        );
        // A URL-only client cannot be sent a form.
        let call = url.call_tool("steps", json!({})).await.unwrap();
        assert!(
            call.text().starts_with("step1=unsupported:"),
            "{}",
            call.text()
        );
    }
}

#[tokio::test]
async fn an_empty_elicitation_object_counts_as_form() {
    let empty = ClientCapabilities {
        elicitation: Some(ElicitationCapability::default()),
        ..Default::default()
    };
    assert_eq!(
        serde_json::to_value(&empty).unwrap(),
        json!({"elicitation": {}})
    );
    for rev in BOTH {
        let c = client(
            Server::new(Hand),
            rev,
            empty.clone(),
            Script::new().elicit(Reply::accept(json!({"name": "Ada"}))),
        )
        .await;
        let call = c.call_tool("greet", json!({})).await.unwrap();
        assert_eq!(call.text(), "Hello, Ada!", "{rev}");

        let lab = client(Server::new(Lab::new()), rev, empty.clone(), Script::new()).await;
        let call = lab.call_tool("url", json!({})).await.unwrap();
        assert_eq!(call.text(), r#"unsupported:{"elicitation":{"url":{}}}"#);
    }
}

#[tokio::test]
async fn tool_enabled_sampling_needs_sampling_tools() {
    for rev in BOTH {
        let plain = client(
            Server::new(Lab::new()),
            rev,
            ClientCapabilities::with_sampling(),
            Script::new().sample(Reply::sample_text("an old pond")),
        )
        .await;
        let call = plain.call_tool("sample_tools", json!({})).await.unwrap();
        assert_eq!(call.text(), r#"unsupported:{"sampling":{"tools":{}}}"#);
        assert_nothing_asked(&plain);
        let call = plain.call_tool("sample", json!({})).await.unwrap();
        assert_eq!(call.text(), "model said: an old pond", "{rev}");

        let tools = ClientCapabilities {
            sampling: Some(SamplingCapability {
                context: None,
                tools: Some(Default::default()),
            }),
            ..Default::default()
        };
        let with_tools = client(
            Server::new(Lab::new()),
            rev,
            tools,
            Script::new().sample(Reply::sample_text("sunny")),
        )
        .await;
        let call = with_tools
            .call_tool("sample_tools", json!({}))
            .await
            .unwrap();
        assert_eq!(call.text(), "model said: sunny", "{rev}");
    }
}

#[tokio::test]
async fn only_declared_questions_go_into_input_requests() {
    // The conformance suite's capability check: a client declaring only sampling gets an
    // InputRequiredResult holding only the sampling request.
    let c = client(
        Server::new(Lab::new()),
        Revision::V2026_07_28,
        ClientCapabilities::with_sampling(),
        Script::new().sample(Reply::sample_text("haiku")),
    )
    .await;
    let call = c.call_tool("mixed", json!({})).await.unwrap();
    assert_eq!(
        call.text(),
        r#"confirm=unsupported:{"elicitation":{"form":{}}} haiku=haiku"#
    );
    let first = c
        .transcript()
        .into_iter()
        .find_map(|f| {
            (f.message["result"]["resultType"] == "input_required")
                .then(|| f.message["result"].clone())
        })
        .unwrap();
    let methods: Vec<&Value> = first["inputRequests"]
        .as_object()
        .unwrap()
        .values()
        .map(|r| &r["method"])
        .collect();
    assert_eq!(methods, [&json!("sampling/createMessage")]);
}

#[tokio::test]
async fn require_answers_32021_with_an_object_in_both_revisions() {
    for rev in BOTH {
        let without = client(
            Server::new(Lab::new()),
            rev,
            ClientCapabilities::with_elicitation_form(),
            Script::new(),
        )
        .await;
        let e = without
            .call_tool("needs_sampling", json!({}))
            .await
            .expect_err("-32021");
        assert_eq!(e.code, code::MISSING_REQUIRED_CLIENT_CAPABILITY, "{rev}");
        assert_eq!(
            e.data,
            Some(json!({"requiredCapabilities": {"sampling": {}}}))
        );

        let with = client(Server::new(Lab::new()), rev, all_caps(), Script::new()).await;
        let call = with.call_tool("needs_sampling", json!({})).await.unwrap();
        assert_eq!(call.text(), "ran");
    }
}
