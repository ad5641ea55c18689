//! The suite's structural checks are weak (CONFORMANCE.md §12: an error text passes some of them),
//! so the exact names, keys and texts of the contract are pinned here, over the in-memory client,
//! with every message validated against the official schemas (by the in-memory client itself).

use rondo_example_conformance::router;
use rondo_mcp::prelude::*;
use rondo_mcp::testing::{Reply, Script, TestClient};
use serde_json::json;

fn caps_all() -> ClientCapabilities {
    let mut c = ClientCapabilities::with_elicitation_form();
    c.sampling = ClientCapabilities::with_sampling().sampling;
    c.roots = ClientCapabilities::with_roots().roots;
    c
}

#[tokio::test]
async fn tools_prompts_and_resources_carry_the_contract_names() {
    let client = TestClient::modern(Server::new(router()))
        .connect()
        .await
        .unwrap();
    let tools = client.list_tools().await.unwrap();
    for name in [
        "test_simple_text",
        "test_image_content",
        "test_audio_content",
        "test_embedded_resource",
        "test_multiple_content_types",
        "test_tool_with_logging",
        "test_error_handling",
        "test_tool_with_progress",
        "test_missing_capability",
        "test_streaming_elicitation",
        "test_logging_tool",
        "test_trigger_tool_change",
        "test_trigger_prompt_change",
        "json_schema_2020_12_tool",
        "test_input_required_result_elicitation",
        "test_input_required_result_multi_round",
        "test_input_required_result_capabilities",
        "test_sampling",
        "test_elicitation",
        "test_elicitation_sep1034_defaults",
        "test_elicitation_sep1330_enums",
    ] {
        let tool = tools
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} is listed"));
        assert!(
            tool.description.as_deref().is_some_and(|d| !d.is_empty()),
            "{name} has a description"
        );
    }
    let schema = &tools
        .iter()
        .find(|t| t.name == "json_schema_2020_12_tool")
        .unwrap()
        .input_schema;
    assert_eq!(schema["$defs"]["address"]["$anchor"], "addressDef");
    let header = &tools
        .iter()
        .find(|t| t.name == "test_custom_header")
        .unwrap()
        .input_schema;
    assert_eq!(header["properties"]["value"]["x-mcp-header"], "Value");
    let simple = client
        .call_tool("test_simple_text", json!({}))
        .await
        .unwrap();
    assert_eq!(simple.text(), "This is a simple text response for testing.");
    let err = client
        .call_tool("test_error_handling", json!({}))
        .await
        .unwrap();
    assert!(err.is_error() && err.text() == "This tool intentionally returns an error for testing");
    let t = client
        .read_resource("test://template/123/data")
        .await
        .unwrap();
    assert_eq!(
        t.result["contents"][0]["text"],
        r#"{"data":"Data for ID: 123","id":"123","templateTest":true}"#
    );
    let p = client
        .get_prompt(
            "test_prompt_with_arguments",
            json!({"arg1": "a", "arg2": "b"}),
        )
        .await
        .unwrap();
    assert_eq!(p.text(), "Prompt with arguments: arg1='a', arg2='b'");
    let e = client
        .request("tools/call", json!({"name": "test_missing_capability"}))
        .await
        .unwrap_err();
    assert_eq!(
        (e.code, e.data.unwrap()),
        (-32021, json!({"requiredCapabilities": {"sampling": {}}}))
    );
}

#[tokio::test]
async fn mrtr_contract_at_2026_07_28() {
    let script = Script::new()
        .keyed(
            "elicitation/create",
            "user_name",
            Reply::accept(json!({"name": "Alice"})),
        )
        .keyed(
            "elicitation/create",
            "step1",
            Reply::accept(json!({"name": "Bob"})),
        )
        .keyed(
            "elicitation/create",
            "step2",
            Reply::accept(json!({"color": "green"})),
        )
        .keyed(
            "elicitation/create",
            "user_context",
            Reply::accept(json!({"context": "tests"})),
        );
    let client = TestClient::modern(Server::new(router()))
        .capabilities(caps_all())
        .script(script)
        .connect()
        .await
        .unwrap();
    let first = client
        .request(
            "tools/call",
            json!({"name": "test_input_required_result_elicitation"}),
        )
        .await
        .unwrap();
    let q = &first["inputRequests"]["user_name"];
    assert_eq!(q["params"]["message"], "What is your name?");
    assert_eq!(q["params"]["requestedSchema"]["required"], json!(["name"]));
    let hello = client
        .call_tool("test_input_required_result_elicitation", json!({}))
        .await
        .unwrap();
    assert_eq!((hello.text().as_str(), hello.rounds), ("Hello, Alice!", 2));
    let multi = client
        .call_tool("test_input_required_result_multi_round", json!({}))
        .await
        .unwrap();
    assert_eq!(
        (multi.text().as_str(), multi.rounds),
        ("Bob likes green", 3)
    );
    let prompt = client
        .get_prompt("test_input_required_result_prompt", json!({}))
        .await
        .unwrap();
    assert_eq!(prompt.text(), "Write with this context in mind: tests");
    let mut tampered = first.clone();
    tampered["requestState"] = json!(format!(
        "{}-TAMPERED",
        first["requestState"].as_str().unwrap()
    ));
    let e = client
        .request(
            "tools/call",
            json!({"name": "test_input_required_result_elicitation",
            "inputResponses": {"user_name": {"action": "accept", "content": {"name": "Eve"}}},
            "requestState": tampered["requestState"]}),
        )
        .await
        .unwrap_err();
    assert_eq!(e.code, -32602);
}

#[tokio::test]
async fn only_declared_capabilities_are_asked() {
    let client = TestClient::modern(Server::new(router()))
        .capabilities(ClientCapabilities::with_sampling())
        .connect()
        .await
        .unwrap();
    let r = client
        .request(
            "tools/call",
            json!({"name": "test_input_required_result_capabilities"}),
        )
        .await
        .unwrap();
    let keys: Vec<&String> = r["inputRequests"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["capital_question"]);
    assert_eq!(
        r["inputRequests"]["capital_question"]["method"],
        "sampling/createMessage"
    );
}

#[tokio::test]
async fn back_channel_contract_at_2025_11_25() {
    let script = Script::new()
        .sample(Reply::sample_text("Paris"))
        .elicit(Reply::accept(
            json!({"username": "alice", "email": "a@example.com"}),
        ));
    let client = TestClient::legacy(Server::new(router()))
        .capabilities(caps_all())
        .script(script)
        .connect()
        .await
        .unwrap();
    let s = client
        .call_tool("test_sampling", json!({"prompt": "Capital of France?"}))
        .await
        .unwrap();
    assert_eq!(s.text(), "LLM response: Paris");
    let e = client
        .call_tool("test_elicitation", json!({"message": "Who are you?"}))
        .await
        .unwrap();
    assert_eq!(
        e.text(),
        r#"User response: action=accept, content={"email":"a@example.com","username":"alice"}"#
    );
}

/// The URL-mode tool at both revisions: the page names the call's flow (the same URL on the
/// retry, so the answer matches its question), accept and decline are reported, and at
/// 2025-11-25 the request carries an `elicitationId` whose completion is announced.
#[tokio::test]
async fn url_mode_contract_at_both_revisions() {
    use rondo_mcp::protocol::Revision;
    use rondo_mcp::testing::Direction;
    for rev in [Revision::V2026_07_28, Revision::V2025_11_25] {
        let script = Script::new()
            .elicit(Reply::Accept(None))
            .elicit(Reply::Decline);
        let client = TestClient::builder(Server::new(router()), rev)
            .capabilities(ClientCapabilities::with_elicitation_url())
            .script(script)
            .connect()
            .await
            .unwrap();
        let done = client
            .call_tool("test_url_elicitation", json!({}))
            .await
            .unwrap();
        assert_eq!(
            done.text(),
            "URL elicitation completed: action=accept, the flow finished",
            "{rev}"
        );
        let declined = client
            .call_tool("test_url_elicitation", json!({}))
            .await
            .unwrap();
        assert_eq!(
            declined.text(),
            "URL elicitation completed: action=decline",
            "{rev}"
        );
        let received: Vec<serde_json::Value> = client
            .transcript()
            .into_iter()
            .filter(|f| f.direction == Direction::Received)
            .map(|f| f.message)
            .collect();
        let asked: Vec<&serde_json::Value> = received
            .iter()
            .filter_map(|m| {
                m.get("result")
                    .and_then(|r| r.get("inputRequests"))
                    .and_then(|r| r.get("open_page"))
                    .map(|r| &r["params"])
                    .or_else(|| (m["method"] == "elicitation/create").then(|| &m["params"]))
            })
            .collect();
        assert_eq!(asked.len(), 2, "{rev}: {asked:#?}");
        let url = |p: &serde_json::Value| p["url"].as_str().unwrap_or_default().to_owned();
        for p in &asked {
            assert_eq!(p["mode"], "url", "{rev}");
            let flow = url(p).rsplit_once("?flow=").map(|(_, f)| f.len());
            assert_eq!(flow, Some(32), "{rev}: the page names the flow: {p}");
        }
        assert_ne!(url(asked[0]), url(asked[1]), "{rev}: one flow per call");
        let completed: Vec<&serde_json::Value> = received
            .iter()
            .filter(|m| m["method"] == "notifications/elicitation/complete")
            .collect();
        if rev.is_modern() {
            assert!(completed.is_empty(), "no notification at 2026-07-28");
        } else {
            let id = &asked[0]["elicitationId"];
            assert!(id.is_string(), "{}", asked[0]);
            assert_eq!(completed.len(), 1);
            assert_eq!(&completed[0]["params"]["elicitationId"], id);
        }
    }
}
