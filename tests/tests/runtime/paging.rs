//! Paged lists at both revisions: `Router::page_size`, `nextCursor` from page to page, the
//! test client following them, and cursors a client made up or kept across a change refused
//! with `-32602`. Every message is checked against the official schema of its revision.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Revision, code};
use rondo_mcp::testing::TestClient;
use rondo_mcp::{prompt, tool, tools};
use serde_json::{Value, json};

/// One.
#[tool]
async fn t1() -> &'static str {
    "1"
}
/// Two.
#[tool]
async fn t2() -> &'static str {
    "2"
}
/// Three.
#[tool]
async fn t3() -> &'static str {
    "3"
}
/// Four.
#[tool]
async fn t4() -> &'static str {
    "4"
}
/// Five.
#[tool]
async fn t5() -> &'static str {
    "5"
}
/// Six.
#[tool]
async fn t6() -> &'static str {
    "6"
}
/// Seven.
#[tool]
async fn t7() -> &'static str {
    "7"
}

/// A first prompt.
#[prompt]
async fn p1() -> String {
    "first".into()
}
/// A second prompt.
#[prompt]
async fn p2() -> String {
    "second".into()
}

fn router() -> Router {
    Router::new(ServerInfo::new("paging", "1.0.0"))
        .tools(tools![t1, t2, t3, t4, t5, t6, t7])
        .prompts(rondo_mcp::prompts![p1, p2])
}

async fn client(rev: Revision, router: Router) -> TestClient {
    TestClient::builder(Server::new(router), rev)
        .connect()
        .await
        .unwrap()
}

fn names(page: &Value, key: &str) -> Vec<String> {
    page[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

const REVS: [Revision; 2] = [Revision::V2026_07_28, Revision::V2025_11_25];

#[tokio::test]
async fn pages_of_three_cover_every_tool_once_in_order() {
    for rev in REVS {
        let c = client(rev, router().page_size(3)).await;
        let first = c.request("tools/list", json!({})).await.unwrap();
        assert_eq!(names(&first, "tools"), ["t1", "t2", "t3"], "{rev:?}");
        let second = c
            .request("tools/list", json!({"cursor": first["nextCursor"]}))
            .await
            .unwrap();
        assert_eq!(names(&second, "tools"), ["t4", "t5", "t6"]);
        let last = c
            .request("tools/list", json!({"cursor": second["nextCursor"]}))
            .await
            .unwrap();
        assert_eq!(names(&last, "tools"), ["t7"]);
        assert!(last.get("nextCursor").is_none(), "{last}");
        // The test client follows the cursors.
        let all: Vec<String> = c
            .list_tools()
            .await
            .unwrap()
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert_eq!(all, ["t1", "t2", "t3", "t4", "t5", "t6", "t7"]);
        // Prompts page the same way.
        let p = c.request("prompts/list", json!({})).await.unwrap();
        assert_eq!(names(&p, "prompts"), ["p1", "p2"]);
        assert!(p.get("nextCursor").is_none());
    }
}

#[tokio::test]
async fn without_a_page_size_everything_is_one_page() {
    for rev in REVS {
        let c = client(rev, router()).await;
        let all = c.request("tools/list", json!({})).await.unwrap();
        assert_eq!(names(&all, "tools").len(), 7);
        assert!(all.get("nextCursor").is_none());
    }
}

#[tokio::test]
async fn made_up_cursors_are_invalid_params() {
    for rev in REVS {
        let c = TestClient::builder(Server::new(router().page_size(2)), rev)
            .skip_validation_of("ListToolsRequest", "ill-typed cursors are sent on purpose")
            .connect()
            .await
            .unwrap();
        for cursor in [
            json!("nonsense"),
            json!("OTk5OnQx"), // "999:t1": past the end
            json!("MjpxOQ"),   // "2:q9": not the item at 2
            json!(""),
            json!(42),
            json!({"offset": 2}),
        ] {
            let e = c
                .request("tools/list", json!({"cursor": cursor}))
                .await
                .unwrap_err();
            assert_eq!(e.code, code::INVALID_PARAMS, "{rev:?} {cursor}: {e:?}");
        }
        // The server still serves.
        assert_eq!(c.list_tools().await.unwrap().len(), 7);
    }
}

#[tokio::test]
async fn a_cursor_kept_across_a_changed_list_is_refused() {
    let c = client(Revision::V2026_07_28, router().page_size(3)).await;
    let first = c.request("tools/list", json!({})).await.unwrap();
    // Another server whose list differs at the cursor's position (as after a change).
    let other = Router::new(ServerInfo::new("paging", "1.0.0"))
        .tools(tools![t2, t3, t4, t5, t6, t7])
        .page_size(3);
    let c2 = client(Revision::V2026_07_28, other).await;
    let e = c2
        .request("tools/list", json!({"cursor": first["nextCursor"]}))
        .await
        .unwrap_err();
    assert_eq!(e.code, code::INVALID_PARAMS);
    assert!(e.message.contains("list again"), "{}", e.message);
}
