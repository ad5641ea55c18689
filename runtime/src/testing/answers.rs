//! The sweep's scripted clients: how each answers whatever it is asked, and the arguments it
//! calls a tool or a prompt with when the test gives none.

use super::Reply;
use crate::protocol::{Error, Revision, Root};
use serde_json::{Map, Value, json};
use std::fmt;

/// How a swept client answers every question it is put.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Answering {
    /// Yes to everything: a form filled in so that it fits its `requestedSchema`, consent to a
    /// URL, a text completion from the model, one root.
    Accept,
    /// The user declines the form or the URL; the client refuses sampling and roots (at
    /// 2025-11-25 with an error, `-1` for sampling; at 2026-07-28, where the spec has no
    /// rejection, by not calling again).
    Decline,
    /// The user dismisses the form or the URL; sampling and roots as for `Decline`.
    Cancel,
    /// Answers of the right shape that do not fit: each form field of another type than its
    /// schema says, an image where the server asked for text, a root that is no file.
    Garbage,
    /// Never answers: at 2026-07-28 the client does not call again; at 2025-11-25 the server
    /// waits for its own answer timeout.
    Silence,
}

impl Answering {
    /// All five, in this order: accept, decline, cancel, garbage, silence.
    pub const ALL: [Answering; 5] = [
        Answering::Accept,
        Answering::Decline,
        Answering::Cancel,
        Answering::Garbage,
        Answering::Silence,
    ];

    /// The answer to `method` with `params` (the question as it was put), at `revision`.
    pub(super) fn reply(self, revision: Revision, method: &str, params: &Value) -> Reply {
        let elicit = method == "elicitation/create";
        let url = params["mode"] == "url";
        match self {
            Answering::Silence => Reply::Ignore,
            Answering::Accept if elicit && url => Reply::Accept(None),
            Answering::Accept if elicit => Reply::accept(fill(&params["requestedSchema"])),
            Answering::Accept if method == "roots/list" => Reply::roots(vec![Root {
                uri: "file:///tmp/rondo-sweep".into(),
                name: Some("sweep".into()),
            }]),
            Answering::Accept => Reply::sample_text("A sample answer from the sweep's model."),
            Answering::Decline if elicit => Reply::Decline,
            Answering::Cancel if elicit => Reply::Cancel,
            Answering::Decline | Answering::Cancel if revision.is_modern() => Reply::Ignore,
            Answering::Decline | Answering::Cancel if method == "sampling/createMessage" => {
                Reply::Error(Error::new(-1, "User rejected sampling request"))
            }
            Answering::Decline | Answering::Cancel => {
                Reply::Error(Error::internal("the user did not share the roots"))
            }
            Answering::Garbage if elicit && url => Reply::Decline,
            Answering::Garbage if elicit => Reply::accept(misfit(&params["requestedSchema"])),
            Answering::Garbage if method == "roots/list" => Reply::roots(vec![Root {
                uri: "https://example.com/not-a-file".into(),
                name: None,
            }]),
            Answering::Garbage => Reply::Raw(json!({
                "role": "assistant",
                "content": {"type": "image", "data": "AAAA", "mimeType": "image/png"},
                "model": "sweep-model",
                "stopReason": "endTurn",
            })),
        }
    }
}

impl fmt::Display for Answering {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Answering::Accept => "accept",
            Answering::Decline => "decline",
            Answering::Cancel => "cancel",
            Answering::Garbage => "garbage",
            Answering::Silence => "silence",
        })
    }
}

/// The `properties` of an object schema, if any.
fn properties(schema: &Value) -> impl Iterator<Item = (&String, &Value)> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
}

/// Content that fits a form's `requestedSchema`: every field, with a value of its type.
fn fill(schema: &Value) -> Value {
    let content: Map<String, Value> = properties(schema)
        .map(|(name, field)| (name.clone(), value_for(field)))
        .collect();
    Value::Object(content)
}

/// Content with every field of the wrong type: a number for text, text for a number or a
/// choice, text for a yes/no.
fn misfit(schema: &Value) -> Value {
    let content: Map<String, Value> = properties(schema)
        .map(|(name, field)| {
            let wrong = match field["type"].as_str() {
                Some("string") => json!(12345),
                Some("array") => json!(true),
                _ => json!("not what was asked"),
            };
            (name.clone(), wrong)
        })
        .collect();
    Value::Object(content)
}

/// The first choice of an enumeration: `enum`, `oneOf`/`anyOf` of `const`s.
fn first_choice(schema: &Value) -> Option<Value> {
    if let Some(first) = schema["enum"].as_array().and_then(|e| e.first()) {
        return Some(first.clone());
    }
    ["oneOf", "anyOf"].iter().find_map(|k| {
        schema[*k]
            .as_array()
            .and_then(|alts| alts.iter().find_map(|a| a.get("const")))
            .cloned()
    })
}

/// A value that fits `schema` (a form field, or a tool argument of the common kinds): its
/// first choice, a well-formed value of its `format`, a number inside its bounds, a string of
/// its minimum length, an array of its minimum size, an object with its required fields.
pub(super) fn value_for(schema: &Value) -> Value {
    if let Some(default) = schema.get("default").filter(|d| !d.is_null()) {
        return default.clone();
    }
    if let Some(choice) = first_choice(schema) {
        return choice;
    }
    if let Some(c) = schema.get("const") {
        return c.clone();
    }
    let ty = match &schema["type"] {
        Value::String(t) => t.as_str(),
        Value::Array(ts) => ts.iter().find_map(Value::as_str).unwrap_or("string"),
        _ if schema.get("properties").is_some() => "object",
        _ => "string",
    };
    match ty {
        "integer" | "number" => {
            let min = schema["minimum"]
                .as_f64()
                .or(schema["exclusiveMinimum"].as_f64().map(|m| m.floor() + 1.0));
            let max = schema["maximum"].as_f64();
            let n = min.unwrap_or(1.0_f64.min(max.unwrap_or(1.0))).ceil();
            json!(n as i64)
        }
        "boolean" => json!(true),
        "null" => Value::Null,
        "array" => {
            let n = schema["minItems"].as_u64().unwrap_or(0).max(1) as usize;
            let item = value_for(&schema["items"]);
            if schema["maxItems"].as_u64() == Some(0) {
                json!([])
            } else {
                Value::Array(vec![item; n])
            }
        }
        "object" => {
            let required: Vec<&str> = schema["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let object: Map<String, Value> = properties(schema)
                .filter(|(name, _)| required.contains(&name.as_str()))
                .map(|(name, field)| (name.clone(), value_for(field)))
                .collect();
            Value::Object(object)
        }
        _ => {
            let text = match schema["format"].as_str() {
                Some("email") => "sweep@example.com",
                Some("uri") => "https://example.com/sweep",
                Some("date") => "2026-07-28",
                Some("date-time") => "2026-07-28T12:00:00Z",
                _ => "sweep",
            };
            let min = schema["minLength"].as_u64().unwrap_or(0) as usize;
            let mut text = text.to_owned();
            while text.chars().count() < min {
                text.push('x');
            }
            if let Some(max) = schema["maxLength"].as_u64() {
                text = text.chars().take(max as usize).collect();
            }
            json!(text)
        }
    }
}

/// Arguments for a prompt from its listed arguments: `"sweep"` for each required one.
pub(super) fn prompt_arguments(prompt: &Value) -> Value {
    let args: Map<String, Value> = prompt["arguments"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|a| a["required"] == true)
        .filter_map(|a| a["name"].as_str())
        .map(|name| (name.to_owned(), json!("sweep")))
        .collect();
    Value::Object(args)
}

/// A URI from an RFC 6570 template, with `sweep` for every variable: `{x}` and `{+x}` give
/// `sweep`, `{#x}` `#sweep`, `{.x}` `.sweep`, `{/x}` `/sweep`, `{;x}` `;x=sweep`, `{?x}`
/// `?x=sweep` and `{&x}` `&x=sweep`, with each operator's separator between the names of one
/// expression (`{x,y}` gives `sweep,sweep`). An unclosed `{` is kept as it is.
pub(super) fn expand_template(template: &str) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| open + c) else {
            break;
        };
        out.push_str(&rest[..open]);
        let expression = &rest[open + 1..close];
        let (op, names) = match expression.chars().next() {
            Some(c @ ('+' | '#' | '.' | '/' | ';' | '?' | '&')) => (Some(c), &expression[1..]),
            _ => (None, expression),
        };
        let names = names.split(',').map(|n| {
            n.trim_end_matches('*')
                .split(':')
                .next()
                .unwrap_or_default()
        });
        let (first, sep, named) = match op {
            None | Some('+') => ("", ",", false),
            Some('#') => ("#", ",", false),
            Some('.') => (".", ".", false),
            Some('/') => ("/", "/", false),
            Some(';') => (";", ";", true),
            Some('?') => ("?", "&", true),
            Some(_) => ("&", "&", true),
        };
        let values: Vec<String> = names
            .map(|n| {
                if named {
                    format!("{n}=sweep")
                } else {
                    "sweep".to_owned()
                }
            })
            .collect();
        out.push_str(first);
        out.push_str(&values.join(sep));
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_expand_with_sweep_for_every_variable() {
        for (template, uri) in [
            ("test://template/{id}/data", "test://template/sweep/data"),
            ("file:///{+path}", "file:///sweep"),
            ("db://{schema}.{table}", "db://sweep.sweep"),
            (
                "x://a{/seg,more}{?q,page}",
                "x://a/sweep/sweep?q=sweep&page=sweep",
            ),
            (
                "x://a{;v}{&n}{#frag}{.ext}",
                "x://a;v=sweep&n=sweep#sweep.sweep",
            ),
            ("x://{list*}/{name:3}", "x://sweep/sweep"),
            ("x://fixed", "x://fixed"),
            ("x://{open", "x://{open"),
        ] {
            assert_eq!(expand_template(template), uri, "{template}");
        }
    }

    #[test]
    fn a_filled_form_fits_its_schema_and_a_misfit_does_not() {
        let schema = json!({"type": "object", "properties": {
            "email": {"type": "string", "format": "email"},
            "seats": {"type": "integer", "minimum": 2, "maximum": 9},
            "class": {"type": "string", "enum": ["economy", "business"]},
            "meal": {"type": "string", "oneOf": [{"const": "veg", "title": "Veg"}]},
            "extras": {"type": "array", "items": {"type": "string", "enum": ["bag", "seat"]}},
            "ok": {"type": "boolean"},
            "note": {"type": "string", "minLength": 8},
        }, "required": ["email"]});
        assert_eq!(
            fill(&schema),
            json!({"email": "sweep@example.com", "seats": 2, "class": "economy", "meal": "veg",
                "extras": ["bag"], "ok": true, "note": "sweepxxx"})
        );
        let wrong = misfit(&schema);
        assert_eq!(wrong["email"], json!(12345));
        assert_eq!(wrong["seats"], json!("not what was asked"));
        assert_eq!(wrong["extras"], json!(true));
    }

    #[test]
    fn arguments_take_defaults_and_only_required_fields() {
        let schema = json!({"type": "object", "properties": {
            "city": {"type": "string"},
            "nights": {"type": "integer", "default": 3},
            "when": {"type": "object", "properties": {"day": {"type": "string", "format": "date"}},
                "required": ["day"]},
        }, "required": ["city", "when"]});
        assert_eq!(
            value_for(&schema),
            json!({"city": "sweep", "when": {"day": "2026-07-28"}})
        );
        assert_eq!(value_for(&schema["properties"]["nights"]), json!(3));
    }

    #[test]
    fn modern_clients_refuse_sampling_by_not_calling_again() {
        let at = |rev| Answering::Decline.reply(rev, "sampling/createMessage", &Value::Null);
        assert_eq!(at(Revision::V2026_07_28), Reply::Ignore);
        assert!(matches!(at(Revision::V2025_11_25), Reply::Error(e) if e.code == -1));
    }
}
