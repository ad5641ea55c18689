//! The Skills extension (SEP-2640) at both revisions, for a folder embedded by `skills!` and the
//! same folder read at start by `Skills::from_dir`: the declaration, `skills/list` (paged, each
//! entry whole, cursors a client cannot forge), `skills/get`; a server without the extension,
//! a hand-written handler declaring it, and the clashes refused at start. The in-memory client
//! checks every message against the official schema of its revision, with the extension's
//! definitions merged in (`runtime/schema/ext-skills`).

use super::fixture::*;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Revision, code};
use rondo_mcp::testing::{Direction, TestClient};
use rondo_mcp::{Skills, skills};
use rondo_tests::validate_def;
use serde_json::{Value, json};

#[tokio::test]
async fn the_extension_is_declared_with_directory_read_at_both_revisions() {
    let c = client(
        Revision::V2026_07_28,
        router(skills!("fixtures/skills/good")),
    )
    .await;
    let discover = c.request("server/discover", json!({})).await.unwrap();
    let caps = &discover["capabilities"];
    assert_eq!(
        caps["extensions"],
        json!({"io.modelcontextprotocol/skills": {"directoryRead": true}})
    );
    assert!(
        caps["resources"].is_object(),
        "skills need the resources capability"
    );

    // 2025-11-25: in `initialize`, the one extension that revision gets (tasks has its own
    // `tasks` there).
    let info = ServerInfo::new("skills", "1.0.0").with_tasks();
    let r = Router::new(info).skills(skills!("fixtures/skills/good"));
    let c = client(Revision::V2025_11_25, r).await;
    let init = c
        .transcript()
        .into_iter()
        .find(|f| f.direction == Direction::Received && f.line.contains("protocolVersion"))
        .map(|f| serde_json::from_str::<Value>(&f.line).unwrap())
        .unwrap();
    assert_eq!(
        init["result"]["capabilities"]["extensions"],
        json!({"io.modelcontextprotocol/skills": {"directoryRead": true}})
    );
}

#[tokio::test]
async fn skills_list_and_get_serve_each_entry_whole() {
    for (how, skills) in both() {
        for rev in REVS {
            let c = client(rev, router(skills.clone())).await;
            let (entries, pages) = list_all(&c).await;
            assert_eq!(pages, [4], "{how} {rev}");
            assert_eq!(
                uris(&entries),
                [
                    "skill://acme/billing/refunds/SKILL.md",
                    "skill://outer/SKILL.md",
                    "skill://outer/inner/SKILL.md",
                    "skill://pdf-forms/SKILL.md"
                ]
            );
            let pdf = &entries[3];
            validate_def(rev, "Skill", pdf).unwrap();
            assert_eq!(
                pdf["frontmatter"],
                json!({"name": "pdf-forms", "license": "MIT",
                       "description": "Fills in PDF forms from the user's answers. Use when the user has a PDF form to complete.",
                       "metadata": {"author": "rondo", "version": "1.0"}, "allowed-tools": ["Read"]}),
                "{how}: the frontmatter verbatim"
            );
            let files: Vec<&str> = pdf["resources"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["uri"].as_str().unwrap())
                .collect();
            assert_eq!(
                files,
                [
                    "skill://pdf-forms/SKILL.md",
                    "skill://pdf-forms/assets/logo.png",
                    "skill://pdf-forms/references/FIELDS.md",
                    "skill://pdf-forms/scripts/fill.py"
                ]
            );
            // A skill's files include those of the skill nested in it.
            assert_eq!(entries[1]["resources"].as_array().unwrap().len(), 2);
            for entry in &entries {
                let uri = entry["uri"].as_str().unwrap();
                let got = c.request("skills/get", json!({"uri": uri})).await.unwrap();
                assert_eq!(
                    &got["skill"], entry,
                    "{how} {rev}: skills/get is the list's entry"
                );
                assert!(got.get("nextCursor").is_none());
                let cached = got.get("ttlMs").is_some() && got.get("cacheScope").is_some();
                assert_eq!(cached, rev.is_modern(), "{how} {rev}: cache attributes");
            }
        }
    }
}

#[tokio::test]
async fn skills_list_pages_with_cursors_a_client_cannot_forge() {
    for rev in REVS {
        let c = client(rev, router(skills!("fixtures/skills/good")).page_size(1)).await;
        let (entries, pages) = list_all(&c).await;
        assert_eq!(pages, [1, 1, 1, 1], "{rev}");
        assert_eq!(entries.len(), 4);
        let first = c.request("skills/list", json!({})).await.unwrap();
        assert_eq!(first.get("ttlMs").is_some(), rev.is_modern());
        for forged in [json!("bogus"), json!("MTpza2lsbDovL291dGVyL1NLSUxMLm1k0")] {
            let e = c
                .request("skills/list", json!({"cursor": forged}))
                .await
                .unwrap_err();
            assert_eq!(e.code, code::INVALID_PARAMS, "{rev} {forged}");
        }
        let c = breaking(
            rev,
            router(skills!("fixtures/skills/good")),
            "ListSkillsRequest",
        )
        .await;
        let e = c
            .request("skills/list", json!({"cursor": 3}))
            .await
            .unwrap_err();
        assert_eq!(e.message, "`cursor` must be a string");
    }
}

#[tokio::test]
async fn an_unknown_skill_is_invalid_params() {
    for rev in REVS {
        let c = client(rev, router(skills!("fixtures/skills/good"))).await;
        for uri in [
            "skill://mcp-conformance-nonexistent-skill-9f3a2b/SKILL.md",
            "skill://pdf-forms/references/FIELDS.md",
            "skill://pdf-forms",
            "skill://pdf-forms/skill.md",
            "skill://pdf-forms/SKILL.md/",
        ] {
            let e = c
                .request("skills/get", json!({"uri": uri}))
                .await
                .unwrap_err();
            assert_eq!(e.code, code::INVALID_PARAMS, "{rev} {uri}");
            assert_eq!(e.message, format!("No skill is served at {uri}"));
        }
        let c = breaking(
            rev,
            router(skills!("fixtures/skills/good")),
            "GetSkillRequest",
        )
        .await;
        let e = c.request("skills/get", json!({})).await.unwrap_err();
        assert_eq!(
            (e.code, e.message.as_str()),
            (code::INVALID_PARAMS, "`uri` must be a string")
        );
    }
}

#[tokio::test]
async fn a_server_without_the_extension_does_not_know_its_methods() {
    for rev in REVS {
        let info = ServerInfo::new("plain", "1.0.0").with_resources();
        let c = client(rev, Router::new(info)).await;
        for (method, params) in [
            ("skills/list", json!({})),
            ("skills/get", json!({"uri": "skill://pdf-forms/SKILL.md"})),
            (
                "resources/directory/read",
                json!({"uri": "skill://pdf-forms"}),
            ),
        ] {
            let e = c.request(method, params).await.unwrap_err();
            assert_eq!(e.code, code::METHOD_NOT_FOUND, "{rev} {method}");
        }
    }
}

/// A hand-written handler: the extension without `directoryRead` serves the skills methods and
/// not `resources/directory/read`.
struct OneSkill;

impl Handler for OneSkill {
    fn info(&self) -> ServerInfo {
        ServerInfo::new("one", "1.0.0").with_skills()
    }
    async fn get_skill(&self, _cx: &Cx, uri: &str) -> Result<rondo_mcp::protocol::Skill, Error> {
        let skill = json!({"uri": uri, "frontmatter": {"name": "gen", "description": "Made up."},
                           "resources": "dynamic"});
        Ok(serde_json::from_value(skill).unwrap())
    }
}

#[tokio::test]
async fn a_handler_declares_the_extension_without_directory_read() {
    for rev in REVS {
        let c = TestClient::builder(Server::new(OneSkill), rev)
            .connect()
            .await
            .unwrap();
        let list = c.request("skills/list", json!({})).await.unwrap();
        assert_eq!(list["skills"], json!([]));
        let got = c
            .request("skills/get", json!({"uri": "skill://gen/SKILL.md"}))
            .await
            .unwrap();
        assert_eq!(got["skill"]["resources"], "dynamic");
        let e = c
            .request("resources/directory/read", json!({"uri": "skill://gen"}))
            .await
            .unwrap_err();
        assert_eq!(
            e.code,
            code::METHOD_NOT_FOUND,
            "{rev}: directoryRead was not declared"
        );
    }
}

#[test]
#[should_panic(expected = "duplicate resource URI `skill://pdf-forms/SKILL.md`")]
fn a_resource_with_a_skill_files_uri_is_refused_at_start() {
    /// The same URI.
    #[rondo_mcp::resource("skill://pdf-forms/SKILL.md")]
    async fn clash() -> ResourceContents {
        ResourceContents::text("skill://pdf-forms/SKILL.md", "text/plain", "")
    }
    let _ = router(skills!("fixtures/skills/good")).resources(rondo_mcp::resources![clash]);
}

#[test]
#[should_panic(expected = "duplicate skill file URI")]
fn the_same_folder_twice_is_refused_at_start() {
    let _ = router(skills!("fixtures/skills/good")).skills(Skills::from_dir(FOLDER).unwrap());
}

#[tokio::test]
async fn two_folders_share_the_folders_that_group_their_skills() {
    let dir = std::env::temp_dir().join(format!("rondo-skills-merge-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("acme/support/refunds")).unwrap();
    std::fs::write(
        dir.join("acme/support/refunds/SKILL.md"),
        "---\nname: refunds\ndescription: Support's refunds.\n---\n",
    )
    .unwrap();
    let other = Skills::from_dir(&dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let r = router(skills!("fixtures/skills/good")).skills(other);
    let c = client(Revision::V2026_07_28, r).await;
    let acme = c
        .request("resources/directory/read", json!({"uri": "skill://acme"}))
        .await
        .unwrap();
    let children: Vec<&str> = acme["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(children, ["skill://acme/billing", "skill://acme/support"]);
    let (entries, _) = list_all(&c).await;
    assert_eq!(entries.len(), 5, "two skills named `refunds`, at two paths");
}
