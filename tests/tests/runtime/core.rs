//! The runtime core without macros: both revisions over the in-memory client (real framing),
//! every emitted message validated against the official schema of its revision.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::code;
use rondo_mcp::testing::{Reply, Script, TestClient};
use rondo_tests::servers::Hand;
use serde_json::{Value, json};

fn caps_form() -> ClientCapabilities {
    ClientCapabilities::with_elicitation_form()
}

#[tokio::test]
async fn two_round_tool_at_2026_07_28() {
    let client = TestClient::modern(Server::new(Hand))
        .capabilities(caps_form())
        .script(Script::new().elicit(Reply::accept(json!({"name": "Ada"}))))
        .connect()
        .await
        .unwrap();
    let call = client.call_tool("greet", json!({})).await.unwrap();
    assert_eq!(call.text(), "Hello, Ada!");
    assert_eq!(call.rounds, 2);
    let t = client.transcript();
    let first = &t[1].message["result"];
    assert_eq!(first["resultType"], "input_required");
    assert_eq!(
        first["inputRequests"]["user_name"]["method"],
        "elicitation/create"
    );
    assert!(first["requestState"].is_string());
    assert!(first.get("ttlMs").is_none() && first.get("cacheScope").is_none());
}

#[tokio::test]
async fn same_tool_through_the_back_channel_at_2025_11_25() {
    let client = TestClient::legacy(Server::new(Hand))
        .capabilities(caps_form())
        .script(Script::new().elicit(Reply::accept(json!({"name": "Grace"}))))
        .connect()
        .await
        .unwrap();
    let call = client.call_tool("greet", json!({})).await.unwrap();
    assert_eq!(call.text(), "Hello, Grace!");
    assert_eq!(call.rounds, 1);
    let t = client.transcript();
    let req = t
        .iter()
        .find(|f| f.message["method"] == "elicitation/create")
        .expect("a real request was sent");
    assert!(req.message["id"].is_string());
}

#[tokio::test]
async fn errors_of_the_modern_path() {
    let client = TestClient::modern(Server::new(Hand))
        .skip_validation_of(
            "ListToolsRequest",
            "sends requests without the required _meta",
        )
        .skip_validation_of("ClientRequest", "sends `ping`, which 2026-07-28 removed")
        .skip_validation_of(
            "JSONRPCMessage",
            "sends lines that are not one JSON-RPC message",
        )
        .connect()
        .await
        .unwrap();
    let e = client
        .raw_request("tools/list", json!({}))
        .await
        .unwrap_err();
    assert_eq!(e.code, code::INVALID_PARAMS);
    let e = client
        .raw_request(
            "tools/list",
            json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}),
        )
        .await
        .unwrap_err();
    assert_eq!(e.code, code::INVALID_PARAMS);
    let e = client
        .raw_request(
            "tools/list",
            json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "v999", "io.modelcontextprotocol/clientCapabilities": {}}}),
        )
        .await
        .unwrap_err();
    assert_eq!(e.code, code::UNSUPPORTED_PROTOCOL_VERSION);
    assert_eq!(
        e.data.unwrap(),
        json!({"supported": ["2026-07-28"], "requested": "v999"})
    );
    let e = client.request("ping", json!({})).await.unwrap_err();
    assert_eq!(e.code, code::METHOD_NOT_FOUND);
    let e = client
        .request("tools/call", json!({"name": "nope"}))
        .await
        .unwrap_err();
    assert_eq!(
        (e.code, e.message.as_str()),
        (code::INVALID_PARAMS, "Unknown tool: nope")
    );
    let d = client.request("server/discover", json!({})).await.unwrap();
    assert_eq!(d["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(
        d["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "hand"
    );
    client.raw_line("{not json").await;
    client.raw_line("[1,2]").await;
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    let t = client.transcript();
    let codes: Vec<Value> = t
        .iter()
        .filter_map(|f| f.message.get("error").map(|e| e["code"].clone()))
        .collect();
    assert!(
        codes.contains(&json!(-32700)) && codes.contains(&json!(-32600)),
        "{codes:?}"
    );
}

#[tokio::test]
async fn panics_become_error_results_and_the_server_keeps_serving() {
    let client = TestClient::modern(Server::new(Hand))
        .connect()
        .await
        .unwrap();
    let call = client.call_tool("boom", json!({})).await.unwrap();
    assert!(call.is_error());
    let call = client
        .call_tool("add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(call.text(), "5");
}
