//! Unit enums as string enums: single choice (`enum`, or `oneOf` of `const`/`title`) and
//! multiple choice (`type: array`).

use super::error::{FieldProblem, json_kind};
use super::{ElicitEnum, EnumOption};
use crate::protocol::{JsonObject, Revision};
use serde_json::{Value, json};

/// Whether any option has a title (then every option shows one).
fn titled(options: &[EnumOption]) -> bool {
    options.iter().any(|o| o.title.is_some())
}

/// The options' wire values.
fn values(options: &[EnumOption]) -> Vec<&'static str> {
    options.iter().map(|o| o.value).collect()
}

/// `[{const, title}]`, an option without a title showing its value.
fn consts(options: &[EnumOption]) -> Value {
    options
        .iter()
        .map(|o| json!({"const": o.value, "title": o.title.unwrap_or(o.value)}))
        .collect()
}

/// The schema of a single choice among `E`'s options: untitled as `enum`; titled as `oneOf` of
/// `{const, title}`, or, for an enum with [`ElicitEnum::LEGACY_NAMES`] asked of a 2025-11-25
/// client, as the legacy `enum` + `enumNames`. The two titled forms are distinct shapes (a
/// client reads one or the other; the conformance suite fails a `oneOf` that also has `enum`),
/// so a schema never carries both.
pub fn enum_schema<E: ElicitEnum>(revision: Revision) -> JsonObject {
    let options = E::OPTIONS;
    let mut schema = JsonObject::new();
    schema.insert("type".into(), "string".into());
    if !titled(options) {
        schema.insert("enum".into(), json!(values(options)));
    } else if E::LEGACY_NAMES && revision == Revision::V2025_11_25 {
        let names: Vec<&str> = options.iter().map(|o| o.title.unwrap_or(o.value)).collect();
        schema.insert("enum".into(), json!(values(options)));
        schema.insert("enumNames".into(), json!(names));
    } else {
        schema.insert("oneOf".into(), consts(options));
    }
    schema
}

/// Reads a single choice: a string that is one of `E`'s wire values.
pub fn enum_from_value<E: ElicitEnum>(value: Option<&Value>) -> Result<E, FieldProblem> {
    match value {
        None => Err(FieldProblem::Missing),
        Some(Value::String(s)) => option::<E>(s),
        Some(other) => Err(FieldProblem::WrongType {
            expected: "one of the options (a string)",
            found: json_kind(other),
        }),
    }
}

/// The variant's wire value as JSON.
pub fn enum_to_value<E: ElicitEnum>(value: &E) -> Value {
    Value::String(value.to_wire().to_owned())
}

/// The variant whose wire value is `s`, or which options there are.
fn option<E: ElicitEnum>(s: &str) -> Result<E, FieldProblem> {
    E::from_wire(s).ok_or_else(|| FieldProblem::NotAnOption {
        found: s.to_owned(),
        options: values(E::OPTIONS),
    })
}

/// The schema of a multiple choice among `E`'s options: `type: array` with `items` `{type:
/// string, enum}` (untitled) or `{anyOf: [{const, title}]}` (titled).
pub fn multi_schema<E: ElicitEnum>() -> JsonObject {
    let options = E::OPTIONS;
    let items = if titled(options) {
        json!({"anyOf": consts(options)})
    } else {
        json!({"type": "string", "enum": values(options)})
    };
    let mut schema = JsonObject::new();
    schema.insert("type".into(), "array".into());
    schema.insert("items".into(), items);
    schema
}

/// Reads a multiple choice: a list whose items are each one of `E`'s wire values.
pub fn multi_from_value<E: ElicitEnum>(value: Option<&Value>) -> Result<Vec<E>, FieldProblem> {
    let wrong = |found| FieldProblem::WrongType {
        expected: "a list of options (strings)",
        found,
    };
    match value {
        None => Err(FieldProblem::Missing),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| match item {
                Value::String(s) => option::<E>(s),
                _ => Err(wrong("a list with an item that is not a string")),
            })
            .collect(),
        Some(other) => Err(wrong(json_kind(other))),
    }
}
