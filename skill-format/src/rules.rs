//! The Agent Skills rules a skill's frontmatter must keep (agentskills.io/specification,
//! "Frontmatter"), and the one SEP-2640 adds:
//!
//! - `name`: required, 1 to 64 characters, lowercase letters `a-z`, digits and hyphens, no
//!   hyphen first, last or twice in a row, and equal to the skill's folder name (which SEP-2640
//!   makes the last segment of the skill's URI);
//! - `description`: required, 1 to 1024 characters (white space alone is empty);
//! - `metadata`, when present: a mapping, none of whose keys has the prefix
//!   `io.modelcontextprotocol/` (reserved for MCP extensions, SEP-2640 "Frontmatter").
//!
//! The other fields (`license`, `compatibility`, `allowed-tools`, future ones) pass through as
//! written: the extension sends the frontmatter verbatim and leaves the format to the Agent
//! Skills specification.

use crate::ProblemKind;
use serde_json::{Map, Value};

/// The longest name, in characters.
pub const MAX_NAME_CHARS: usize = 64;
/// The longest description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
/// The prefix of `metadata` keys reserved for MCP extensions.
pub const RESERVED_METADATA_PREFIX: &str = "io.modelcontextprotocol/";

/// Checks `frontmatter`, of the skill in the folder named `folder`; every problem, one per
/// field (a wrong name is not also a mismatch).
pub fn check(frontmatter: &Map<String, Value>, folder: &str) -> Vec<ProblemKind> {
    let mut problems = Vec::new();
    problems.extend(check_name(frontmatter.get("name"), folder));
    problems.extend(check_description(frontmatter.get("description")));
    problems.extend(check_metadata(frontmatter.get("metadata")));
    problems
}

fn check_name(name: Option<&Value>, folder: &str) -> Option<ProblemKind> {
    let name = match name {
        None => {
            return Some(ProblemKind::MissingName {
                folder: folder.into(),
            });
        }
        Some(Value::String(name)) => name,
        Some(_) => return Some(wrong_type("name", "text")),
    };
    if let Err(why) = valid_name(name) {
        return Some(ProblemKind::InvalidName {
            name: name.clone(),
            why,
        });
    }
    (name != folder).then(|| ProblemKind::NameMismatch {
        name: name.clone(),
        folder: folder.into(),
    })
}

/// Whether `name` keeps the Agent Skills naming rules; the rule it breaks otherwise.
pub fn valid_name(name: &str) -> Result<(), String> {
    let chars = name.chars().count();
    if chars == 0 {
        return Err("it is empty".into());
    }
    if chars > MAX_NAME_CHARS {
        return Err(format!("it is {chars} characters long"));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !matches!(c, 'a'..='z' | '0'..='9' | '-'))
    {
        return Err(format!(
            "`{}` is not a lowercase letter, digit or hyphen",
            c.escape_debug()
        ));
    }
    if name.starts_with('-') {
        return Err("it starts with a hyphen".into());
    }
    if name.ends_with('-') {
        return Err("it ends with a hyphen".into());
    }
    if name.contains("--") {
        return Err("it has two hyphens in a row".into());
    }
    Ok(())
}

fn check_description(description: Option<&Value>) -> Option<ProblemKind> {
    let description = match description {
        None => return Some(ProblemKind::MissingDescription),
        Some(Value::String(d)) => d,
        Some(_) => return Some(wrong_type("description", "text")),
    };
    let chars = description.chars().count();
    if description.trim().is_empty() {
        Some(ProblemKind::EmptyDescription)
    } else if chars > MAX_DESCRIPTION_CHARS {
        Some(ProblemKind::LongDescription { chars })
    } else {
        None
    }
}

fn check_metadata(metadata: Option<&Value>) -> Option<ProblemKind> {
    match metadata {
        None => None,
        Some(Value::Object(map)) => map
            .keys()
            .find(|k| k.starts_with(RESERVED_METADATA_PREFIX))
            .map(|key| ProblemKind::ReservedMetadata { key: key.clone() }),
        Some(_) => Some(wrong_type("metadata", "a mapping")),
    }
}

fn wrong_type(key: &'static str, must_be: &'static str) -> ProblemKind {
    ProblemKind::WrongType { key, must_be }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problems(frontmatter: Value, folder: &str) -> Vec<String> {
        let map = frontmatter.as_object().cloned().unwrap_or_default();
        check(&map, folder)
            .into_iter()
            .map(|p| format!("{p:?}"))
            .collect()
    }

    #[test]
    fn names_follow_the_agent_skills_rules() {
        for good in ["a", "pdf", "pdf-processing", "x9", "9x", &"a".repeat(64)] {
            assert_eq!(valid_name(good), Ok(()), "{good}");
        }
        for (bad, why) in [
            ("", "it is empty"),
            (&"a".repeat(65) as &str, "it is 65 characters long"),
            ("PDF", "`P` is not a lowercase letter, digit or hyphen"),
            (
                "pdf_tools",
                "`_` is not a lowercase letter, digit or hyphen",
            ),
            (
                "pdf tools",
                "` ` is not a lowercase letter, digit or hyphen",
            ),
            ("café", "`é` is not a lowercase letter, digit or hyphen"),
            ("a/b", "`/` is not a lowercase letter, digit or hyphen"),
            ("-pdf", "it starts with a hyphen"),
            ("pdf-", "it ends with a hyphen"),
            ("pdf--tools", "it has two hyphens in a row"),
        ] {
            assert_eq!(valid_name(bad), Err(why.to_owned()), "{bad:?}");
        }
    }

    #[test]
    fn a_good_frontmatter_has_no_problem() {
        let fm = json!({"name": "pdf", "description": "Fills forms.", "license": "MIT",
                        "metadata": {"author": "me", "io.example/x": "1"}, "compatibility": 3});
        assert_eq!(problems(fm, "pdf"), Vec::<String>::new());
        let long = "d".repeat(MAX_DESCRIPTION_CHARS);
        assert!(problems(json!({"name": "pdf", "description": long}), "pdf").is_empty());
    }

    #[test]
    fn each_field_has_its_problem_and_one_only() {
        assert_eq!(
            problems(json!({}), "pdf"),
            ["MissingName { folder: \"pdf\" }", "MissingDescription"]
        );
        assert_eq!(
            problems(json!({"name": "PDF", "description": " \n"}), "pdf"),
            [
                "InvalidName { name: \"PDF\", why: \"`P` is not a lowercase letter, digit or hyphen\" }",
                "EmptyDescription"
            ]
        );
        assert_eq!(
            problems(json!({"name": "pdf-tools", "description": 1}), "pdf"),
            [
                "NameMismatch { name: \"pdf-tools\", folder: \"pdf\" }",
                "WrongType { key: \"description\", must_be: \"text\" }"
            ]
        );
        let long = "é".repeat(MAX_DESCRIPTION_CHARS + 1);
        assert_eq!(
            problems(json!({"name": ["pdf"], "description": long}), "pdf"),
            [
                "WrongType { key: \"name\", must_be: \"text\" }",
                "LongDescription { chars: 1025 }"
            ]
        );
        assert_eq!(
            problems(
                json!({"name": "pdf", "description": "d", "metadata": "v1"}),
                "pdf"
            ),
            ["WrongType { key: \"metadata\", must_be: \"a mapping\" }"]
        );
        let reserved = json!({"name": "pdf", "description": "d",
                              "metadata": {"io.modelcontextprotocol/x": "1"}});
        assert_eq!(
            problems(reserved, "pdf"),
            ["ReservedMetadata { key: \"io.modelcontextprotocol/x\" }"]
        );
    }
}
