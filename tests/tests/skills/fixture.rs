//! What the skills tests share: the fixture folder (`tests/fixtures/skills/good`) embedded by
//! `skills!` and read at start by `Skills::from_dir`, a router and a client of either revision
//! serving it, a file's digest, and `skills/list` followed to its end.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::TestClient;
use rondo_mcp::{Skills, skills};
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};

pub(super) const REVS: [Revision; 2] = [Revision::V2026_07_28, Revision::V2025_11_25];
pub(super) const FOLDER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/skills/good");

/// The fixture's skills, both ways.
pub(super) fn both() -> [(&'static str, Skills); 2] {
    [
        ("embedded", skills!("fixtures/skills/good")),
        ("from_dir", Skills::from_dir(FOLDER).unwrap()),
    ]
}

pub(super) fn router(skills: Skills) -> Router {
    Router::new(ServerInfo::new("skills", "1.0.0")).skills(skills)
}

pub(super) async fn client(rev: Revision, router: Router) -> TestClient {
    TestClient::builder(Server::new(router), rev)
        .connect()
        .await
        .unwrap()
}

/// A client that may send `def` against its schema, on purpose.
pub(super) async fn breaking(rev: Revision, router: Router, def: &str) -> TestClient {
    TestClient::builder(Server::new(router), rev)
        .skip_validation_of(
            def,
            "the test sends what the schema forbids, to see it refused",
        )
        .connect()
        .await
        .unwrap()
}

pub(super) fn sha256(bytes: &[u8]) -> String {
    let sum = Sha256::digest(bytes);
    format!(
        "sha256:{}",
        sum.iter().map(|b| format!("{b:02x}")).collect::<String>()
    )
}

/// Every entry of `skills/list`, following `nextCursor`, and the pages' sizes.
pub(super) async fn list_all(c: &TestClient) -> (Vec<Value>, Vec<usize>) {
    let (mut all, mut pages, mut params) = (Vec::new(), Vec::new(), json!({}));
    for _ in 0..50 {
        let page = c.request("skills/list", params.clone()).await.unwrap();
        let skills = page["skills"].as_array().unwrap();
        pages.push(skills.len());
        all.extend(skills.iter().cloned());
        match page.get("nextCursor") {
            Some(next) => params = json!({"cursor": next}),
            None => return (all, pages),
        }
    }
    panic!("skills/list never ended");
}

pub(super) fn uris(entries: &[Value]) -> Vec<&str> {
    entries.iter().map(|e| e["uri"].as_str().unwrap()).collect()
}
