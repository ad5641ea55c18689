//! The Skills extension (`io.modelcontextprotocol/skills`, SEP-2640) on the wire: a skill's
//! entry ([`Skill`]), which `skills/list` pages and `skills/get` returns, its file manifest
//! ([`SkillResources`]), and what the server declares under `capabilities.extensions`.
//!
//! The extension is written against 2026-07-28; Rondo also serves it to 2025-11-25 sessions
//! (docs/design.md, "Skills"), where the results carry no `ttlMs`/`cacheScope`.

use super::{Error, JsonObject, echo};
use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The id of the Skills extension, under `capabilities.extensions`.
pub const SKILLS_EXTENSION: &str = "io.modelcontextprotocol/skills";

/// The MIME type of a directory resource (`resources/directory/read` lists them).
pub const DIRECTORY_MIME_TYPE: &str = "inode/directory";

/// One skill: where its `SKILL.md` is, its frontmatter verbatim, and its files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Skill {
    /// The URI of the skill's `SKILL.md` (`skill://<skill-path>/SKILL.md`), readable with
    /// `resources/read`.
    pub uri: String,
    /// The `SKILL.md` frontmatter as a JSON object: `name` and `description`, and every other
    /// field as the author wrote it.
    pub frontmatter: JsonObject,
    /// Every file of the skill with its digest and size, or [`SkillResources::Dynamic`].
    pub resources: SkillResources,
}

/// A skill's files: the complete list (its `SKILL.md` included), or `"dynamic"` when the
/// content is generated and has no stable digests.
#[derive(Debug, Clone, PartialEq)]
pub enum SkillResources {
    /// Every file, each once.
    Files(Vec<SkillResource>),
    /// `"dynamic"`: no manifest.
    Dynamic,
}

/// One file of a skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillResource {
    /// Its resource URI.
    pub uri: String,
    /// The SHA-256 of its bytes: `sha256:` and 64 lowercase hex digits.
    pub digest: String,
    /// Its length in bytes (the bytes the digest covers).
    pub size: u64,
}

impl Serialize for SkillResources {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            SkillResources::Files(files) => files.serialize(s),
            SkillResources::Dynamic => s.serialize_str("dynamic"),
        }
    }
}

impl<'de> Deserialize<'de> for SkillResources {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) if s == "dynamic" => Ok(SkillResources::Dynamic),
            v @ Value::Array(_) => Vec::deserialize(v)
                .map(SkillResources::Files)
                .map_err(de::Error::custom),
            _ => Err(de::Error::custom(
                "`resources` is an array of files or \"dynamic\"",
            )),
        }
    }
}

/// The `skills/get` result: `{"skill": ..}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GetSkillResult {
    /// The skill.
    pub skill: Skill,
}

impl Error {
    /// `-32602` for a `skills/get` of a URI that names no skill the server serves.
    pub fn unknown_skill(uri: &str) -> Self {
        Error::invalid_params(format!("No skill is served at {}", echo(uri)))
    }
    /// `-32602` for a `resources/directory/read` of a URI that is not a directory resource.
    pub fn not_a_directory(uri: &str) -> Self {
        Error::invalid_params(format!("{} is not a directory resource", echo(uri)))
    }
}

/// The extensions a 2025-11-25 `initialize` declares: every one but the tasks extension
/// (2026-07-28's; 2025-11-25 has its own `tasks`). The engine drops those registered as
/// 2026-07-28 only as well (`Extension::modern_only`).
pub(crate) fn legacy_extensions(extensions: Option<JsonObject>) -> Option<JsonObject> {
    let mut extensions = extensions?;
    extensions.remove(super::TASKS_EXTENSION);
    (!extensions.is_empty()).then_some(extensions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_entry_round_trips_and_dynamic_is_a_string() {
        let skill = Skill {
            uri: "skill://pdf/SKILL.md".into(),
            frontmatter: json!({"name": "pdf", "description": "d"})
                .as_object()
                .cloned()
                .unwrap(),
            resources: SkillResources::Files(vec![SkillResource {
                uri: "skill://pdf/SKILL.md".into(),
                digest: "sha256:00".into(),
                size: 2,
            }]),
        };
        let wire = serde_json::to_value(&skill).unwrap();
        assert_eq!(
            wire["resources"],
            json!([{"uri": "skill://pdf/SKILL.md", "digest": "sha256:00", "size": 2}])
        );
        assert_eq!(serde_json::from_value::<Skill>(wire).unwrap(), skill);
        let dynamic = serde_json::to_value(SkillResources::Dynamic).unwrap();
        assert_eq!(dynamic, json!("dynamic"));
        let back: SkillResources = serde_json::from_value(dynamic).unwrap();
        assert_eq!(back, SkillResources::Dynamic);
        assert!(serde_json::from_value::<SkillResources>(json!("static")).is_err());
        assert!(serde_json::from_value::<SkillResources>(json!({})).is_err());
    }

    #[test]
    fn a_handshake_declares_every_extension_but_tasks() {
        let extensions = JsonObject::from_iter([
            (SKILLS_EXTENSION.to_owned(), json!({"directoryRead": true})),
            ("io.modelcontextprotocol/tasks".to_owned(), json!({})),
            ("com.acme/echo".to_owned(), json!({"loud": true})),
        ]);
        assert_eq!(
            Value::Object(legacy_extensions(Some(extensions)).unwrap()),
            json!({SKILLS_EXTENSION: {"directoryRead": true}, "com.acme/echo": {"loud": true}})
        );
        let tasks_only =
            JsonObject::from_iter([("io.modelcontextprotocol/tasks".into(), json!({}))]);
        assert_eq!(legacy_extensions(Some(tasks_only)), None);
    }
}
