//! `Server::client_policy` at both revisions, over the in-memory stdio framing and over HTTP: a
//! client a rule matches (by `clientInfo` name and version range) gets the question's fallback
//! at once, with no elicitation or sampling request sent; a client the rule does not match
//! (another name, a version outside the range) is asked. The debug line naming the rule is `client_policy_log.rs`'s.

use crate::support::http::*;
use http::StatusCode;
use rondo_mcp::http::HttpConfig;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Implementation, Revision};
use rondo_mcp::testing::{Direction, Reply, Script, TestClient};
use rondo_mcp::{Capability, ClientPolicy, ClientRule};
use rondo_tests::questions::{self, Payments};
use serde_json::{Value, json};

const BOTH: [Revision; 2] = [Revision::V2026_07_28, Revision::V2025_11_25];

/// "Some Host" before 1.4 never shows forms; "Model Host" rejects every sampling request, and
/// never runs tools in it.
fn policy() -> ClientPolicy {
    ClientPolicy::from_json(
        r#"{"rules": [
            {"client": "Some Host", "versions": "<1.4", "remove": ["elicitation.form"]},
            {"client": "Model Host*", "remove": ["sampling"]},
            {"client": "Tool-less Host", "remove": ["sampling.tools"]}
        ]}"#,
    )
    .expect("a valid policy")
}

fn questions_server() -> Server<Router> {
    questions::server(Payments::default()).client_policy(policy())
}

fn sampling_server() -> Server<Router> {
    rondo_tests::sampling::server().client_policy(policy())
}

/// The questions the server sent: 2025-11-25 requests and 2026-07-28 input requests, by method.
fn asked(c: &TestClient) -> Vec<String> {
    let mut out = Vec::new();
    for f in c.transcript() {
        if f.direction != Direction::Received {
            continue;
        }
        if let Some(m) = f.message["method"].as_str() {
            out.push(m.to_owned());
        }
        for (_, r) in f.message["result"]["inputRequests"]
            .as_object()
            .into_iter()
            .flatten()
        {
            out.push(r["method"].as_str().unwrap_or_default().to_owned());
        }
    }
    out
}

async fn client<H: Handler>(
    server: Server<H>,
    rev: Revision,
    name: &str,
    version: &str,
    caps: ClientCapabilities,
    script: Script,
) -> TestClient {
    TestClient::builder(server, rev)
        .client_info(Implementation::new(name, version))
        .capabilities(caps)
        .script(script)
        .connect()
        .await
        .expect("connects")
}

fn welcome() -> Value {
    json!({"greeting": "Hi", "name": "Ada"})
}

#[tokio::test]
async fn a_matching_host_gets_the_form_fallback_at_once() {
    for rev in BOTH {
        for version in ["1.3.9", "1.0", "0.9.0-alpha.1+x"] {
            // Scripted to answer, so an ask would show in the result.
            let script = Script::new().elicit(Reply::accept(json!({"name": "Bob"})));
            let form = ClientCapabilities::with_elicitation_form();
            let c = client(questions_server(), rev, "Some Host", version, form, script).await;
            let call = c.call_tool("welcome", welcome()).await.unwrap();
            // `0.9.0-alpha.1` is a pre-release outside `<1.4` by Cargo's rule: asked.
            if version.contains("alpha") {
                assert_eq!(call.text(), "Hi, Bob!", "{rev} {version}");
                assert_eq!(asked(&c), ["elicitation/create"], "{rev} {version}");
                continue;
            }
            assert_eq!(
                call.text(),
                "Hi, Ada!",
                "{rev} {version}: the args fallback"
            );
            assert_eq!(call.rounds, 1, "{rev} {version}");
            assert!(asked(&c).is_empty(), "{rev} {version}: {:?}", asked(&c));
        }
    }
}

#[tokio::test]
async fn a_host_the_rule_does_not_match_is_asked() {
    for rev in BOTH {
        for (name, version) in [
            ("Some Host", "1.4.0"),
            ("Some Host", "2"),
            ("some host", "1.0.0"),
            ("Some Host Pro", "1.0.0"),
            ("Some Host", "nightly"),
        ] {
            let script = Script::new().elicit(Reply::accept(json!({"name": "Bob"})));
            let form = ClientCapabilities::with_elicitation_form();
            let c = client(questions_server(), rev, name, version, form, script).await;
            let call = c.call_tool("welcome", welcome()).await.unwrap();
            assert_eq!(call.text(), "Hi, Bob!", "{rev} {name} {version}");
            assert_eq!(asked(&c), ["elicitation/create"], "{rev} {name} {version}");
        }
    }
}

#[tokio::test]
async fn the_handler_sees_the_narrowed_capabilities_and_refuse_names_them() {
    for rev in BOTH {
        // `buy` refuses without forms: -32021, as for a client that never declared them.
        let form = ClientCapabilities::with_elicitation_form();
        let c = client(
            questions_server(),
            rev,
            "Some Host",
            "1.2",
            form,
            Script::new(),
        )
        .await;
        let e = c
            .call_tool("buy", json!({"item": "tea", "quantity": 1}))
            .await
            .unwrap_err();
        assert_eq!(
            e.code,
            rondo_mcp::protocol::code::MISSING_REQUIRED_CLIENT_CAPABILITY,
            "{rev}"
        );
        assert!(asked(&c).is_empty(), "{rev}");
    }
}

#[tokio::test]
async fn a_host_that_rejects_sampling_gets_the_fallback_at_once() {
    let text = json!({"text": "one two three four five"});
    for rev in BOTH {
        for (name, fallback) in [
            ("Model Host", true),
            ("Model Host 2", true),
            ("Other Host", false),
        ] {
            let script = Script::new().sample(Reply::sample_text("The model's summary."));
            let sampling = ClientCapabilities::with_sampling();
            let c = client(sampling_server(), rev, name, "1.0.0", sampling, script).await;
            let call = c.call_tool("summarize", text.clone()).await.unwrap();
            if fallback {
                assert_eq!(call.text(), "one two three...", "{rev} {name}");
                assert!(asked(&c).is_empty(), "{rev} {name}: {:?}", asked(&c));
            } else {
                assert_eq!(call.text(), "The model's summary.", "{rev} {name}");
                assert_eq!(asked(&c), ["sampling/createMessage"], "{rev} {name}");
            }
        }
    }
}

#[tokio::test]
async fn removing_sampling_tools_leaves_plain_sampling() {
    let mut with_tools = ClientCapabilities::with_sampling();
    if let Some(s) = with_tools.sampling.as_mut() {
        s.tools = Some(Default::default());
    }
    for rev in BOTH {
        let connect = || {
            let script = Script::new().sample(Reply::sample_text("The model's summary."));
            let caps = with_tools.clone();
            client(sampling_server(), rev, "Tool-less Host", "1", caps, script)
        };
        // A request with tools: the fallback (every candidate), nothing sent.
        let c = connect().await;
        let call = c.call_tool("choose", json!({})).await.unwrap();
        assert!(call.text().contains("\"RX3\""), "{rev}: {}", call.text());
        assert!(asked(&c).is_empty(), "{rev}: {:?}", asked(&c));
        // Plain sampling still goes to the client.
        let c = connect().await;
        let text = json!({"text": "one two three four"});
        let call = c.call_tool("summarize", text).await.unwrap();
        assert_eq!(call.text(), "The model's summary.", "{rev}");
    }
}

#[tokio::test]
async fn a_policy_in_code_does_what_the_same_json_does() {
    let code = ClientPolicy::new().rule(
        ClientRule::named("Some Host")
            .versions("<1.4")
            .unwrap()
            .remove(Capability::ElicitationForm),
    );
    for rev in BOTH {
        let server = questions::server(Payments::default()).client_policy(code.clone());
        let form = ClientCapabilities::with_elicitation_form();
        let c = client(server, rev, "Some Host", "1.3.0", form, Script::new()).await;
        let call = c.call_tool("welcome", welcome()).await.unwrap();
        assert_eq!(call.text(), "Hi, Ada!", "{rev}");
        assert!(asked(&c).is_empty(), "{rev}");
    }
}

/// A 2026-07-28 `tools/call` of `welcome` from `name`/`version`, declaring `elicitation: {}`.
fn modern_welcome(name: &str, version: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
    "name": "welcome", "arguments": welcome(),
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": V26,
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
        "io.modelcontextprotocol/clientInfo": {"name": name, "version": version},
    }}})
}

#[tokio::test]
async fn over_http_at_2026_07_28_a_matching_host_is_not_asked() {
    let s = start(questions_server(), HttpConfig::default()).await;
    let done = post_modern(s.addr, &modern_welcome("Some Host", "1.3.0"), |_| {})
        .await
        .json()
        .await;
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    assert_eq!(text(&done), "Hi, Ada!");
    for (name, version) in [("Some Host", "1.4.1"), ("Other Host", "1.0.0")] {
        let irr = post_modern(s.addr, &modern_welcome(name, version), |_| {})
            .await
            .json()
            .await;
        assert_eq!(
            irr["result"]["resultType"], "input_required",
            "{name}: {irr}"
        );
        let requests = irr["result"]["inputRequests"].as_object().expect("asked");
        assert_eq!(requests.len(), 1, "{irr}");
        assert!(
            requests
                .values()
                .all(|r| r["method"] == "elicitation/create"),
            "{irr}"
        );
    }
    s.stop().await;
}

/// The final response of a 2025-11-25 `tools/call` and every request the server sent on its
/// stream, each elicitation answered with `{"name": "Bob"}`.
async fn legacy_welcome(session: &Session) -> (Value, Vec<Value>) {
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": "welcome", "arguments": welcome()}});
    let mut reply = session.post(&call).await;
    assert_eq!(reply.status, StatusCode::OK);
    if reply.content_type().starts_with("application/json") {
        return (reply.json().await, Vec::new());
    }
    let mut requests = Vec::new();
    while let Some(event) = reply.event().await {
        if event.get("method").is_none() {
            return (event, requests);
        }
        if event["method"] == "elicitation/create" {
            let answer = json!({"jsonrpc": "2.0", "id": event["id"],
                                "result": {"action": "accept", "content": {"name": "Bob"}}});
            assert_eq!(session.post(&answer).await.status, StatusCode::ACCEPTED);
        }
        requests.push(event);
    }
    panic!("the stream ended without a response");
}

#[tokio::test]
async fn over_http_at_2025_11_25_a_matching_host_is_not_asked() {
    let s = start(questions_server(), HttpConfig::default()).await;
    let caps = json!({"elicitation": {}});
    let host = |name: &str, version: &str| json!({"name": name, "version": version});
    let session = Session::open_with(s.addr, None, caps.clone(), host("Some Host", "1.3")).await;
    let (done, requests) = legacy_welcome(&session).await;
    assert_eq!(text(&done), "Hi, Ada!");
    assert!(requests.is_empty(), "{requests:?}");
    for (name, version) in [("Some Host", "1.4.0"), ("Other Host", "1.0.0")] {
        let session = Session::open_with(s.addr, None, caps.clone(), host(name, version)).await;
        let (done, requests) = legacy_welcome(&session).await;
        assert_eq!(text(&done), "Hi, Bob!", "{name}");
        assert_eq!(requests.len(), 1, "{name}: {requests:?}");
        assert_eq!(requests[0]["method"], "elicitation/create");
    }
    s.stop().await;
}
