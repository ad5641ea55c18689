//! A `SKILL.md`'s frontmatter: found between its first two `---` lines, parsed as YAML 1.2
//! (`saphyr`) and rendered as the JSON object the skills extension sends verbatim in each
//! skill's entry.
//!
//! The frontmatter is found as hosts find it (the conformance suite's reading, and the Agent
//! Skills reference's): a first line of exactly `---` (after an optional byte order mark), then
//! YAML, then the first line that is `---` (trailing spaces or tabs allowed). YAML's own rules
//! apply inside: duplicate keys are an error, and alias expansion has a budget (the loader's).
//! What JSON cannot carry is refused rather than changed: keys that are not text, tags,
//! infinities and NaN.

use crate::ProblemKind;
use saphyr::{LoadableYamlNode, Scalar, Yaml};
use serde_json::{Map, Number, Value};

/// The YAML text of the frontmatter of `text`, a `SKILL.md`.
pub fn split(text: &str) -> Result<&str, ProblemKind> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or(ProblemKind::NoFrontmatter)?;
    let mut at = 0;
    for line in rest.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        if bare.trim_end_matches([' ', '\t']) == "---" {
            return Ok(&rest[..at]);
        }
        at += line.len();
    }
    Err(ProblemKind::UnclosedFrontmatter)
}

/// The frontmatter of `text`, a `SKILL.md`, as a JSON object (not yet checked against the
/// Agent Skills rules: see [`crate::rules`]).
pub fn parse(text: &str) -> Result<Map<String, Value>, ProblemKind> {
    let yaml = split(text)?;
    // The YAML starts on the file's second line, after `---`.
    let docs = Yaml::load_from_str(yaml).map_err(|e| {
        let (line, col) = (e.marker().line() + 1, e.marker().col() + 1);
        ProblemKind::Yaml(format!("{} at line {line}, column {col}", e.info()))
    })?;
    match docs.as_slice() {
        // Only comments or blank lines: no keys at all.
        [] => Ok(Map::new()),
        [Yaml::Mapping(_)] => match to_json(&docs[0], "")? {
            Value::Object(map) => Ok(map),
            _ => Err(ProblemKind::NotAMapping),
        },
        _ => Err(ProblemKind::NotAMapping),
    }
}

/// `node` as JSON; `at` is its dotted key path, for the error.
fn to_json(node: &Yaml, at: &str) -> Result<Value, ProblemKind> {
    let refuse = |what| ProblemKind::NotJson {
        at: if at.is_empty() { "/".into() } else { at.into() },
        what,
    };
    Ok(match node {
        Yaml::Value(scalar) => {
            scalar_json(scalar).ok_or_else(|| refuse("an infinite or NaN number"))?
        }
        Yaml::Sequence(items) => Value::Array(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| to_json(item, &format!("{at}[{i}]")))
                .collect::<Result<_, _>>()?,
        ),
        Yaml::Mapping(map) => {
            let mut out = Map::new();
            for (key, value) in map {
                let Yaml::Value(Scalar::String(key)) = key else {
                    return Err(refuse("a key that is not text"));
                };
                let path = if at.is_empty() {
                    key.to_string()
                } else {
                    format!("{at}.{key}")
                };
                out.insert(key.to_string(), to_json(value, &path)?);
            }
            Value::Object(out)
        }
        Yaml::Tagged(..) => return Err(refuse("a YAML tag")),
        Yaml::Alias(_) | Yaml::Representation(..) | Yaml::BadValue => {
            return Err(refuse("a value YAML could not resolve"));
        }
    })
}

/// A scalar as JSON; `None` for a float JSON has no number for.
fn scalar_json(scalar: &Scalar) -> Option<Value> {
    Some(match scalar {
        Scalar::Null => Value::Null,
        Scalar::Boolean(b) => Value::Bool(*b),
        Scalar::Integer(i) => Value::Number((*i).into()),
        Scalar::FloatingPoint(f) => Value::Number(Number::from_f64(f.into_inner())?),
        Scalar::String(s) => Value::String(s.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ok(text: &str) -> Value {
        Value::Object(parse(text).unwrap_or_else(|e| panic!("{text:?}: {e:?}")))
    }

    #[test]
    fn the_frontmatter_is_between_the_first_two_rule_lines() {
        assert_eq!(
            split("---\nname: a\n---\nbody\n---\n").unwrap(),
            "name: a\n"
        );
        assert_eq!(
            split("\u{feff}---\r\nname: a\r\n--- \t\r\n").unwrap(),
            "name: a\r\n"
        );
        assert_eq!(split("---\nname: a\n---").unwrap(), "name: a\n");
        // Only a line that is `---` closes it; `----` and ` ---` are YAML.
        assert_eq!(
            split("---\na: 1\n----\n ---\n---\n").unwrap(),
            "a: 1\n----\n ---\n"
        );
        assert!(matches!(
            split("# Title\n---\n"),
            Err(ProblemKind::NoFrontmatter)
        ));
        assert!(matches!(
            split(" ---\nname: a\n---\n"),
            Err(ProblemKind::NoFrontmatter)
        ));
        assert!(matches!(
            split("--- \nname: a\n---\n"),
            Err(ProblemKind::NoFrontmatter)
        ));
        assert!(matches!(split(""), Err(ProblemKind::NoFrontmatter)));
        assert!(matches!(
            split("---\nname: a\n"),
            Err(ProblemKind::UnclosedFrontmatter)
        ));
    }

    #[test]
    fn yaml_becomes_the_json_a_host_parses() {
        let text = "---\nname: pdf\ndescription: >\n  Fills PDF\n  forms.\nlicense: MIT\n\
                    metadata:\n  version: \"1.0\"\n  build: 1.0\n  n: 3\nallowed-tools: [Read, 'Bash(git:*)']\n\
                    empty: ~\nflag: yes\non: true\n---\n";
        assert_eq!(
            ok(text),
            json!({"name": "pdf", "description": "Fills PDF forms.\n", "license": "MIT",
                   "metadata": {"version": "1.0", "build": 1.0, "n": 3},
                   "allowed-tools": ["Read", "Bash(git:*)"],
                   // YAML 1.2: `yes` is text; only `true`/`false` are booleans.
                   "empty": null, "flag": "yes", "on": true})
        );
        assert_eq!(ok("---\n# nothing\n---\n"), json!({}));
        assert_eq!(
            ok("---\na: &x [1]\nb: *x\n---\n"),
            json!({"a": [1], "b": [1]})
        );
    }

    #[test]
    fn what_json_cannot_carry_or_yaml_forbids_is_refused() {
        let refused = |text: &str| parse(text).expect_err(text);
        assert!(matches!(
            refused("---\n- a\n---\n"),
            ProblemKind::NotAMapping
        ));
        assert!(matches!(
            refused("---\njust text\n---\n"),
            ProblemKind::NotAMapping
        ));
        let yaml = |text| match refused(text) {
            ProblemKind::Yaml(e) => e,
            other => panic!("{text:?}: {other:?}"),
        };
        // Lines and columns are the file's: the YAML starts on line 2.
        assert_eq!(
            yaml("---\na: 1\na: 2\n---\n"),
            "duplicated key in mapping at line 3, column 1"
        );
        assert_eq!(
            yaml("---\nname: x\n  bad: indent\n---\n"),
            "mapping values are not allowed in this context at line 3, column 6"
        );
        for (text, at, what) in [
            ("---\n1: x\n---\n", "/", "a key that is not text"),
            (
                "---\nm:\n  k: .inf\n---\n",
                "m.k",
                "an infinite or NaN number",
            ),
            (
                "---\nl: [1, .nan]\n---\n",
                "l[1]",
                "an infinite or NaN number",
            ),
            ("---\nt: !custom x\n---\n", "t", "a YAML tag"),
        ] {
            match refused(text) {
                ProblemKind::NotJson { at: a, what: w } => assert_eq!((a.as_str(), w), (at, what)),
                other => panic!("{text:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn an_alias_bomb_is_refused_by_the_loader() {
        let mut text = String::from("---\na0: [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..9 {
            let prev = format!("*a{}", i - 1);
            text.push_str(&format!("a{i}: &a{i} [{}]\n", vec![prev; 10].join(", ")));
        }
        let text = text.replacen("a0: [", "a0: &a0 [", 1) + "---\n";
        assert!(matches!(parse(&text), Err(ProblemKind::Yaml(_))), "{text}");
    }
}
