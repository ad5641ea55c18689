//! What the suite's three Skills scenarios (`sep-2640-skills-*`) need of this server, pinned:
//! the extension declared with `directoryRead`, the first skill `skills/list` gives with a
//! subfolder (the directory scenario reads that skill's folder and looks for an
//! `inode/directory` child), each `SKILL.md` in `resources/list` named and described from its
//! frontmatter, and nothing under `_meta`.

use rondo_example_conformance::router;
use rondo_mcp::prelude::*;
use rondo_mcp::testing::TestClient;
use serde_json::json;

#[tokio::test]
async fn the_skills_the_suite_reads() {
    let c = TestClient::modern(Server::new(router()))
        .connect()
        .await
        .unwrap();
    let discover = c.request("server/discover", json!({})).await.unwrap();
    assert_eq!(
        discover["capabilities"]["extensions"]["io.modelcontextprotocol/skills"],
        json!({"directoryRead": true})
    );
    let list = c.request("skills/list", json!({})).await.unwrap();
    let uris: Vec<&str> = list["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        [
            "skill://acme/billing/refunds/SKILL.md",
            "skill://conformance-tour/SKILL.md"
        ]
    );
    let first = c
        .request(
            "resources/directory/read",
            json!({"uri": "skill://acme/billing/refunds"}),
        )
        .await
        .unwrap();
    assert!(
        first["resources"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["mimeType"] == "inode/directory"),
        "the first skill has a subfolder"
    );
    let resources = c.request("resources/list", json!({})).await.unwrap();
    for skill in list["skills"].as_array().unwrap() {
        let listed = resources["resources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["uri"] == skill["uri"])
            .expect("each SKILL.md is listed");
        assert_eq!(listed["name"], skill["frontmatter"]["name"]);
        assert_eq!(listed["description"], skill["frontmatter"]["description"]);
        assert_eq!(listed["mimeType"], "text/markdown");
        assert!(listed.get("_meta").is_none());
    }
}
