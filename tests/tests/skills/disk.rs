//! `Skills::from_dir` and the disk after start: a skill file is served only while it is what
//! the manifest taken at start states. Changed (same size or not), replaced by a link that
//! leaves its skill, replaced by a folder, or removed, it is refused with `-32603` saying so,
//! and served again once it is back; the manifest never changes under a running server. And a
//! folder that breaks a rule is an error at start naming the file and the rule.

use rondo_mcp::Skills;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Revision, code};
use rondo_mcp::testing::TestClient;
use serde_json::json;
use std::fs;
use std::path::{Path, PathBuf};

const REVS: [Revision; 2] = [Revision::V2026_07_28, Revision::V2025_11_25];
const FIELDS: &str = "skill://pdf-forms/references/FIELDS.md";

/// A copy of the fixture folder, removed when dropped.
struct Copy(PathBuf);

impl Copy {
    fn new(tag: &str) -> Copy {
        let dir = std::env::temp_dir().join(format!("rondo-skills-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/skills/good");
        rondo_tests::copy_dir(Path::new(fixture), &dir).unwrap();
        Copy(dir)
    }
    fn at(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

async fn client(rev: Revision, dir: &Path) -> TestClient {
    let router =
        Router::new(ServerInfo::new("disk", "1.0.0")).skills(Skills::from_dir(dir).unwrap());
    TestClient::builder(Server::new(router), rev)
        .connect()
        .await
        .unwrap()
}

/// The text `resources/read` gives for `uri`, or its error.
async fn read(c: &TestClient, uri: &str) -> Result<String, rondo_mcp::Error> {
    let r = c.read_resource(uri).await?;
    Ok(r.result["contents"][0]["text"].as_str().unwrap().to_owned())
}

/// The digest `skills/get` states for `FIELDS.md`.
async fn stated_digest(c: &TestClient) -> serde_json::Value {
    let got = c
        .request("skills/get", json!({"uri": "skill://pdf-forms/SKILL.md"}))
        .await
        .unwrap();
    got["skill"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["uri"] == FIELDS)
        .unwrap()["digest"]
        .clone()
}

fn assert_refused(e: &rondo_mcp::Error, why: &str) {
    assert_eq!(e.code, code::INTERNAL_ERROR);
    let start = format!("The skill file {FIELDS} changed on disk since the server started ({why})");
    assert!(e.message.starts_with(&start), "{}", e.message);
    assert!(
        e.message.ends_with("restart it to serve the new version"),
        "{}",
        e.message
    );
    assert_eq!(e.data, Some(json!({"uri": FIELDS})));
}

#[tokio::test]
async fn a_changed_file_is_refused_never_served_with_a_stale_digest() {
    for rev in REVS {
        let dir = Copy::new(&format!("changed-{rev}"));
        let file = dir.at("pdf-forms/references/FIELDS.md");
        let original = fs::read_to_string(&file).unwrap();
        let c = client(rev, &dir.0).await;
        let digest = stated_digest(&c).await;
        assert_eq!(read(&c, FIELDS).await.unwrap(), original);

        // The same size, other bytes: only the digest tells.
        fs::write(&file, original.to_uppercase()).unwrap();
        let e = read(&c, FIELDS).await.unwrap_err();
        assert_refused(&e, "its bytes are not the ones its digest was taken of");
        assert_eq!(
            stated_digest(&c).await,
            digest,
            "{rev}: the manifest is the one of start"
        );

        fs::write(&file, format!("{original}more")).unwrap();
        let e = read(&c, FIELDS).await.unwrap_err();
        let why = format!("it is {} bytes, not {}", original.len() + 4, original.len());
        assert_refused(&e, &why);

        fs::remove_file(&file).unwrap();
        let e = read(&c, FIELDS).await.unwrap_err();
        assert_eq!(e.code, code::INTERNAL_ERROR, "{rev}: a removed file");

        fs::create_dir(&file).unwrap();
        assert_refused(
            &read(&c, FIELDS).await.unwrap_err(),
            "it is no longer a file",
        );
        fs::remove_dir(&file).unwrap();

        // Back as it was: served again, with the digest the manifest states.
        fs::write(&file, &original).unwrap();
        assert_eq!(read(&c, FIELDS).await.unwrap(), original);
    }
}

#[tokio::test]
async fn a_file_replaced_by_a_link_that_leaves_its_skill_is_refused() {
    let outside = Copy::new("outside");
    let secret = outside.at("secret.txt");
    let dir = Copy::new("linked");
    let file = dir.at("pdf-forms/references/FIELDS.md");
    // The secret has the very bytes of the file: only where it is gives it away.
    fs::copy(&file, &secret).unwrap();
    let c = client(Revision::V2026_07_28, &dir.0).await;
    fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink(&secret, &file).unwrap();
    let e = read(&c, FIELDS).await.unwrap_err();
    assert_refused(&e, "it now resolves outside its skill's folder");
    // A link to another file of the same skill with the same bytes is still the file.
    let copy = dir.at("pdf-forms/references/COPY.md");
    fs::copy(&secret, &copy).unwrap();
    fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink(&copy, &file).unwrap();
    assert!(read(&c, FIELDS).await.is_ok());
}

#[test]
fn a_folder_that_breaks_a_rule_is_an_error_at_start_naming_the_file_and_the_rule() {
    let dir = Copy::new("broken");
    fs::write(dir.at("outer/SKILL.md"), "---\nname: outer\n---\n").unwrap();
    fs::write(
        dir.at("acme/billing/refunds/SKILL.md"),
        "---\nname: refund\ndescription: d\n---\n",
    )
    .unwrap();
    let e = Skills::from_dir(&dir.0).unwrap_err();
    assert_eq!(e.dir(), dir.0);
    assert_eq!(
        e.to_string(),
        format!(
            "cannot serve the skills in `{}`\n  \
             - `name: refund` in `acme/billing/refunds/SKILL.md` is not its folder's name `refunds`; a skill's name is its folder's name: rename one to match the other\n  \
             - the frontmatter of `outer/SKILL.md` has no `description`; add one that says what the skill does and when to use it",
            dir.0.display()
        )
    );
    assert_eq!(e.messages().count(), 2);
    let missing = Skills::from_dir(dir.at("nope")).unwrap_err();
    assert!(
        missing
            .to_string()
            .contains("cannot read the skills folder: "),
        "{missing}"
    );
}
