//! A skill's files at both revisions: every listed file read back with the digest and size its
//! manifest states, `resources/list` showing each `SKILL.md`, `resources/directory/read` (paged,
//! refusing what is not a directory), and no URI but a listed one naming anything.

use super::fixture::*;
use base64::Engine as _;
use rondo_mcp::protocol::code;
use rondo_mcp::skills;
use serde_json::{Value, json};

#[tokio::test]
async fn every_listed_file_reads_back_with_its_digest_and_size() {
    for (how, skills) in both() {
        for rev in REVS {
            let c = client(rev, router(skills.clone())).await;
            let (entries, _) = list_all(&c).await;
            let mut read = 0;
            for file in entries
                .iter()
                .flat_map(|e| e["resources"].as_array().unwrap())
            {
                let uri = file["uri"].as_str().unwrap();
                let r = c.read_resource(uri).await.unwrap().result;
                let contents = r["contents"].as_array().unwrap();
                assert_eq!(contents.len(), 1);
                assert_eq!(contents[0]["uri"], uri);
                let bytes = match (contents[0].get("text"), contents[0].get("blob")) {
                    (Some(Value::String(text)), None) => text.as_bytes().to_vec(),
                    (None, Some(Value::String(b64))) => base64::engine::general_purpose::STANDARD
                        .decode(b64)
                        .unwrap(),
                    other => panic!("{uri}: {other:?}"),
                };
                assert_eq!(sha256(&bytes), file["digest"], "{how} {rev} {uri}");
                assert_eq!(bytes.len() as u64, file["size"].as_u64().unwrap());
                read += 1;
            }
            assert_eq!(
                read,
                2 + 2 + 1 + 4,
                "{how} {rev}: every file of every manifest"
            );
            let logo = c
                .read_resource("skill://pdf-forms/assets/logo.png")
                .await
                .unwrap();
            let logo = &logo.result["contents"][0];
            assert_eq!(logo["mimeType"], "image/png");
            assert!(
                logo["blob"].is_string(),
                "bytes that are not UTF-8 are a blob"
            );
            let md = c.read_resource("skill://pdf-forms/SKILL.md").await.unwrap();
            assert_eq!(md.result["contents"][0]["mimeType"], "text/markdown");
        }
    }
}

#[tokio::test]
async fn resources_list_shows_each_skill_md_from_its_frontmatter() {
    for rev in REVS {
        let c = client(rev, router(skills!("fixtures/skills/good"))).await;
        let list = c.request("resources/list", json!({})).await.unwrap();
        let resources = list["resources"].as_array().unwrap();
        assert_eq!(
            resources.len(),
            4,
            "{rev}: one per SKILL.md, no supporting file"
        );
        let pdf = resources
            .iter()
            .find(|r| r["uri"] == "skill://pdf-forms/SKILL.md")
            .unwrap();
        assert_eq!(pdf["name"], "pdf-forms");
        assert_eq!(
            pdf["description"],
            "Fills in PDF forms from the user's answers. Use when the user has a PDF form to complete."
        );
        assert_eq!(pdf["mimeType"], "text/markdown");
        assert!(pdf.get("_meta").is_none());
    }
}

#[tokio::test]
async fn a_directory_lists_its_direct_children() {
    for (how, skills) in both() {
        for rev in REVS {
            let c = client(rev, router(skills.clone())).await;
            let root = c
                .request(
                    "resources/directory/read",
                    json!({"uri": "skill://pdf-forms"}),
                )
                .await
                .unwrap();
            assert!(
                root.get("ttlMs").is_none(),
                "a directory read is not cacheable"
            );
            let children: Vec<(&str, &str)> = root["resources"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| (r["uri"].as_str().unwrap(), r["mimeType"].as_str().unwrap()))
                .collect();
            assert_eq!(
                children,
                [
                    ("skill://pdf-forms/SKILL.md", "text/markdown"),
                    ("skill://pdf-forms/assets", "inode/directory"),
                    ("skill://pdf-forms/references", "inode/directory"),
                    ("skill://pdf-forms/scripts", "inode/directory")
                ],
                "{how} {rev}"
            );
            let refs = c
                .request(
                    "resources/directory/read",
                    json!({"uri": "skill://pdf-forms/references"}),
                )
                .await
                .unwrap();
            assert_eq!(refs["resources"][0]["name"], "FIELDS.md");
            assert_eq!(refs["resources"][0]["size"], 39);
            // The folders that group skills are directories too.
            let acme = c
                .request(
                    "resources/directory/read",
                    json!({"uri": "skill://acme/billing"}),
                )
                .await
                .unwrap();
            assert_eq!(acme["resources"][0]["uri"], "skill://acme/billing/refunds");
        }
    }
}

#[tokio::test]
async fn a_directory_read_pages_and_refuses_what_is_not_a_directory() {
    for rev in REVS {
        let c = client(rev, router(skills!("fixtures/skills/good")).page_size(3)).await;
        let dir = json!({"uri": "skill://pdf-forms"});
        let first = c
            .request("resources/directory/read", dir.clone())
            .await
            .unwrap();
        assert_eq!(first["resources"].as_array().unwrap().len(), 3);
        let next = json!({"uri": "skill://pdf-forms", "cursor": first["nextCursor"]});
        let second = c.request("resources/directory/read", next).await.unwrap();
        assert_eq!(second["resources"][0]["uri"], "skill://pdf-forms/scripts");
        assert!(second.get("nextCursor").is_none());
        for uri in [
            "skill://pdf-forms/SKILL.md",
            "skill://pdf-forms/references/FIELDS.md",
            "skill://nothing",
            "skill://pdf-forms/",
            "skill://",
        ] {
            let e = c
                .request("resources/directory/read", json!({"uri": uri}))
                .await
                .unwrap_err();
            assert_eq!(e.code, code::INVALID_PARAMS, "{rev} {uri}");
            assert_eq!(e.message, format!("{uri} is not a directory resource"));
        }
        let e = c
            .request(
                "resources/directory/read",
                json!({"uri": "skill://pdf-forms", "cursor": "x"}),
            )
            .await
            .unwrap_err();
        assert_eq!(e.code, code::INVALID_PARAMS);
    }
}

#[tokio::test]
async fn no_other_spelling_of_a_path_reads_anything() {
    for (how, skills) in both() {
        for rev in REVS {
            // `/etc/passwd` is no URI at all: the schema forbids it, the server must refuse it.
            let c = breaking(rev, router(skills.clone()), "ReadResourceRequest").await;
            for uri in [
                "skill://pdf-forms/../acme/billing/refunds/SKILL.md",
                "skill://pdf-forms/references/../SKILL.md",
                "skill://pdf-forms/references/%2e%2e/SKILL.md",
                "skill://pdf-forms/%2E%2E/%2E%2E/%2E%2E/etc/passwd",
                "skill://pdf-forms/..%2F..%2F..%2Fetc%2Fpasswd",
                "skill://pdf-forms/SKILL%2Emd",
                "skill://pdf-forms//SKILL.md",
                "skill://pdf-forms/./SKILL.md",
                "skill:///etc/passwd",
                "skill://%2Fetc/passwd",
                "file:///etc/passwd",
                "/etc/passwd",
                "skill://pdf-forms/references",
                "SKILL://pdf-forms/SKILL.md",
            ] {
                let e = c.read_resource(uri).await.unwrap_err();
                assert_eq!(e.code, code::INVALID_PARAMS, "{how} {rev} {uri}");
                assert_eq!(e.message, "Resource not found", "{how} {rev} {uri}");
            }
        }
    }
}

#[tokio::test]
async fn an_unknown_uri_is_quoted_short_in_the_error_data() {
    // A client's 1 MB URI costs it 100 characters of answer, as `skills/get` quotes it.
    let long = format!("skill://pdf-forms/{}", "a".repeat(1 << 20));
    for (how, skills) in both() {
        for rev in REVS {
            let c = client(rev, router(skills.clone())).await;
            let e = c.read_resource(&long).await.unwrap_err();
            assert_eq!(e.message, "Resource not found", "{how} {rev}");
            let quoted = e
                .data
                .as_ref()
                .and_then(|d| d["uri"].as_str())
                .unwrap_or_default();
            assert_eq!(
                quoted.chars().count(),
                101,
                "{how} {rev}: {}",
                &quoted[..quoted.len().min(200)]
            );
            assert!(quoted.starts_with("skill://pdf-forms/aaa") && quoted.ends_with('…'));
        }
    }
}
