//! The travel server's skill, `plan-a-trip` (the Skills extension, SEP-2640), through the test
//! client at both revisions: declared, listed by `skills/list` under its name, each file of its
//! manifest read back by `resources/read` with the manifest's SHA-256 digest and size, the same
//! entry from `skills/get` (cacheable on 2026-07-28 only), its `SKILL.md` in `resources/list`,
//! and a `SKILL.md` that names every tool the server has. 2025-11-25 gets the same extension
//! (design §29): the same entry and bytes, without the cache attributes.

use crate::common;

use common::*;
use rondo_example_travel::Config;
use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::{Direction, Script, TestClient};
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};

const SKILL_MD: &str = "skill://plan-a-trip/SKILL.md";

fn sha256(bytes: &[u8]) -> String {
    let hex: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

async fn connected(rev: Revision) -> TestClient {
    let (server, _) = travel(Config::default()).await;
    client(server, rev, nothing(), Script::new()).await
}

/// The capabilities the server declared: `server/discover` (2026-07-28), `initialize`
/// (2025-11-25).
async fn capabilities(c: &TestClient, rev: Revision) -> Value {
    if rev.is_modern() {
        let discovered = c.request("server/discover", json!({})).await.unwrap();
        return discovered["capabilities"].clone();
    }
    let init = c
        .transcript()
        .into_iter()
        .find(|f| f.direction == Direction::Received && f.line.contains("protocolVersion"))
        .expect("the initialize result");
    init.message["result"]["capabilities"].clone()
}

#[tokio::test]
async fn the_skill_is_listed_and_reads_back_with_its_manifests_digest() {
    for rev in BOTH {
        let c = connected(rev).await;
        let caps = capabilities(&c, rev).await;
        assert_eq!(
            caps["extensions"]["io.modelcontextprotocol/skills"],
            json!({"directoryRead": true}),
            "{rev}: {caps}"
        );

        let listed = c.request("skills/list", json!({})).await.unwrap();
        assert!(listed.get("nextCursor").is_none(), "{rev}: one page");
        let skills = listed["skills"].as_array().unwrap();
        assert_eq!(skills.len(), 1, "{rev}: {listed}");
        let skill = &skills[0];
        assert_eq!(skill["uri"], SKILL_MD);
        assert_eq!(skill["frontmatter"]["name"], "plan-a-trip", "{rev}");
        let description = skill["frontmatter"]["description"].as_str().unwrap();
        assert!(description.contains("book_trip"), "{description}");

        let files = skill["resources"].as_array().unwrap();
        let uris: Vec<&str> = files.iter().map(|f| f["uri"].as_str().unwrap()).collect();
        assert_eq!(
            uris,
            [SKILL_MD, "skill://plan-a-trip/references/answers.md"],
            "{rev}"
        );
        for file in files {
            let uri = file["uri"].as_str().unwrap();
            let read = c.read_resource(uri).await.unwrap().result;
            let contents = read["contents"].as_array().unwrap();
            assert_eq!(contents.len(), 1, "{rev} {uri}");
            assert_eq!(contents[0]["uri"], uri);
            assert_eq!(contents[0]["mimeType"], "text/markdown", "{rev} {uri}");
            let text = contents[0]["text"].as_str().expect("UTF-8 text");
            assert_eq!(
                json!(sha256(text.as_bytes())),
                file["digest"],
                "{rev} {uri}"
            );
            assert_eq!(json!(text.len()), file["size"], "{rev} {uri}");
        }

        let got = c
            .request("skills/get", json!({"uri": SKILL_MD}))
            .await
            .unwrap();
        assert_eq!(
            &got["skill"], skill,
            "{rev}: skills/get is the list's entry"
        );
        let cached = got.get("ttlMs").is_some() && got.get("cacheScope").is_some();
        assert_eq!(cached, rev.is_modern(), "{rev}: cache attributes");
        assert_eq!(listed.get("ttlMs").is_some(), rev.is_modern(), "{rev}");
    }
}

#[tokio::test]
async fn the_skill_md_is_a_resource_and_names_every_tool() {
    for rev in BOTH {
        let c = connected(rev).await;
        let list = c.request("resources/list", json!({})).await.unwrap();
        let resources = list["resources"].as_array().unwrap();
        let listed: Vec<&Value> = resources.iter().filter(|r| r["uri"] == SKILL_MD).collect();
        assert_eq!(listed.len(), 1, "{rev}: {list}");
        assert_eq!(listed[0]["name"], "plan-a-trip");
        assert_eq!(listed[0]["mimeType"], "text/markdown");

        let read = c.read_resource(SKILL_MD).await.unwrap().result;
        let text = read["contents"][0]["text"].as_str().unwrap().to_owned();
        let tools = c.request("tools/list", json!({})).await.unwrap();
        let names: Vec<&str> = tools["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "find_best_flight",
                "book_trip",
                "pay_for_trip",
                "trip_files"
            ],
            "{rev}"
        );
        for name in names {
            assert!(
                text.contains(&format!("**`{name}`**")),
                "{rev}: the skill's steps name {name}"
            );
        }
        let steps: Vec<usize> = [
            "trip_files",
            "find_best_flight",
            "book_trip",
            "pay_for_trip",
        ]
        .iter()
        .map(|n| text.find(&format!("**`{n}`**")).unwrap())
        .collect();
        assert!(
            steps.is_sorted(),
            "{rev}: the steps in the order a trip needs them: {steps:?}"
        );
    }
}
