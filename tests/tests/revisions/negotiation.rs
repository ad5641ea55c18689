//! `initialize` negotiates the version the client asked for (the newest handshake one for
//! anything else), and each session is sent only what its revision defines: the server's info
//! and capabilities, listed items, result content, progress messages, prompts, resources and
//! completions, and `Cx::revision`.

use super::server::*;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Revision, code};
use rondo_mcp::testing::{Direction, Script, TestClient};
use rondo_mcp::{tool, tools};
use serde_json::{Value, json};

#[tokio::test]
async fn initialize_answers_the_version_asked_for_and_the_newest_for_any_other() {
    for revision in HANDSHAKE {
        // The test client fails to connect unless the server agrees to its version.
        let c = connect(revision, everything(), Script::new()).await;
        let init = c.initialize_result().expect("initialized");
        assert_eq!(init["protocolVersion"], revision.as_str());
    }
    for asked in ["2099-01-01", "2026-07-28", "1.0", "", "2025-13-45"] {
        let c = TestClient::builder(server(), Revision::V2025_11_25)
            .connect()
            .await
            .unwrap();
        let answer = c
            .raw_request(
                "initialize",
                json!({"protocolVersion": asked, "capabilities": {},
                       "clientInfo": {"name": "t", "version": "1"}}),
            )
            .await
            .unwrap();
        assert_eq!(answer["protocolVersion"], "2025-11-25", "asked {asked:?}");
    }
}

#[tokio::test]
async fn an_initialize_without_a_string_version_is_invalid_params() {
    for params in [
        json!({"capabilities": {}}),
        json!({"protocolVersion": 20250618}),
    ] {
        let c = TestClient::builder(server(), Revision::V2025_11_25)
            .skip_validation_of("InitializeRequest", "leaves out or mistypes the version")
            .connect()
            .await
            .unwrap();
        let e = c.raw_request("initialize", params).await.unwrap_err();
        assert_eq!(e.code, code::INVALID_PARAMS, "{e:?}");
        assert!(e.message.contains("protocolVersion"), "{}", e.message);
    }
}

#[tokio::test]
async fn the_server_s_info_and_capabilities_are_its_revision_s() {
    let at = |r| async move {
        let c = connect(r, ClientCapabilities::default(), Script::new()).await;
        c.initialize_result().cloned().expect("initialized")
    };
    let old = at(Revision::V2024_11_05).await;
    assert_eq!(
        old["serverInfo"],
        json!({"name": "revisions", "version": "1.0.0"})
    );
    assert!(old["capabilities"].get("completions").is_none());
    let mid = at(Revision::V2025_06_18).await;
    assert_eq!(mid["serverInfo"]["title"], "Revisions");
    assert!(mid["serverInfo"].get("description").is_none());
    assert!(mid["capabilities"].get("completions").is_some());
    let new = at(Revision::V2025_11_25).await;
    assert_eq!(new["serverInfo"]["description"], "Every revision");
}

#[tokio::test]
async fn listed_items_carry_only_their_revision_s_fields() {
    for revision in HANDSHAKE {
        let c = connect(revision, everything(), Script::new()).await;
        let tools = c.list_tools().await.unwrap();
        let weather = tools.iter().find(|t| t.name == "weather").unwrap();
        let annotated = revision >= Revision::V2025_03_26;
        let structured = revision >= Revision::V2025_06_18;
        assert_eq!(weather.annotations.is_some(), annotated, "{revision}");
        assert_eq!(weather.title.is_some(), structured, "{revision}");
        assert_eq!(weather.output_schema.is_some(), structured, "{revision}");
        let prompts = c.request("prompts/list", json!({})).await.unwrap();
        assert_eq!(
            prompts["prompts"][0].get("title").is_some(),
            structured,
            "{revision}"
        );
        let resources = c.request("resources/list", json!({})).await.unwrap();
        assert_eq!(
            resources["resources"][0].get("title").is_some(),
            structured,
            "{revision}"
        );
        c.assert_valid();
    }
}

#[tokio::test]
async fn results_carry_only_content_their_revision_has() {
    for revision in HANDSHAKE {
        let c = connect(revision, everything(), Script::new()).await;
        let call = c.call_tool("media", json!({})).await.unwrap();
        let types: Vec<&str> = call.result["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["type"].as_str().unwrap())
            .collect();
        let expected: &[&str] = match revision {
            Revision::V2024_11_05 => &["text", "text", "resource"],
            Revision::V2025_03_26 => &["audio", "text", "resource"],
            _ => &["audio", "resource_link", "resource"],
        };
        assert_eq!(types, expected, "{revision}");
        let embedded = &call.result["content"][2];
        let structured = revision >= Revision::V2025_06_18;
        assert_eq!(
            embedded["resource"].get("_meta").is_some(),
            structured,
            "{revision}"
        );
        assert_eq!(
            embedded["annotations"].get("lastModified").is_some(),
            structured,
            "{revision}"
        );
        if !structured {
            assert!(
                call.result["content"][1]["text"]
                    .as_str()
                    .unwrap()
                    .contains("file:///notes.txt"),
                "{revision}: {}",
                call.result
            );
        }
        let weather = c.call_tool("weather", json!({})).await.unwrap();
        assert_eq!(
            weather.result.get("structuredContent").is_some(),
            structured,
            "{revision}"
        );
        assert_eq!(weather.text(), r#"{"celsius":21.5}"#, "{revision}");
    }
}

#[tokio::test]
async fn progress_says_its_message_from_2025_03_26() {
    for revision in HANDSHAKE {
        let c = connect(revision, everything(), Script::new()).await;
        let params = json!({"name": "count", "arguments": {}, "_meta": {"progressToken": 7}});
        c.request("tools/call", params).await.unwrap();
        let progress: Vec<Value> = c
            .transcript()
            .into_iter()
            .filter(|f| f.direction == Direction::Received)
            .filter(|f| f.message["method"] == "notifications/progress")
            .map(|f| f.message["params"].clone())
            .collect();
        assert_eq!(progress.len(), 3, "{revision}");
        assert_eq!(
            progress[0].get("message").is_some(),
            revision >= Revision::V2025_03_26,
            "{revision}"
        );
    }
}

#[tokio::test]
async fn prompts_resources_and_completions_work_at_every_revision() {
    for revision in HANDSHAKE {
        let c = connect(revision, ClientCapabilities::default(), Script::new()).await;
        let prompt = c
            .request(
                "prompts/get",
                json!({"name": "greet", "arguments": {"name": "Ada"}}),
            )
            .await
            .unwrap();
        assert_eq!(prompt["messages"][0]["content"]["text"], "Hello Ada");
        let read = c
            .request("resources/read", json!({"uri": "file:///readme.md"}))
            .await
            .unwrap();
        assert_eq!(read["contents"][0]["text"], "# Hi");
        c.assert_valid();
    }
}

#[tokio::test]
async fn cx_revision_is_the_session_s() {
    /// Says which revision serves it.
    #[tool]
    async fn which(cx: &Cx) -> String {
        cx.revision().to_string()
    }
    for revision in HANDSHAKE {
        let c = TestClient::builder(
            Server::new(Router::new(ServerInfo::new("w", "1")).tools(tools![which])),
            revision,
        )
        .connect()
        .await
        .unwrap();
        assert_eq!(
            c.call_tool("which", json!({})).await.unwrap().text(),
            revision.as_str()
        );
    }
}
