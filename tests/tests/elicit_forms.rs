//! `#[derive(Elicit)]`: the schemas it renders (validated against the official schema of both
//! revisions) and the answers it reads back (every problem, with its message).

use rondo_mcp::protocol::Revision;
use rondo_mcp::{Elicit, FormError};
use rondo_tests::validate_def;
use serde_json::{Value, json};

#[derive(Elicit, Debug, PartialEq)]
struct Approval {
    /// Book this trip?
    approve: bool,
    /// Seat preference
    seat: Option<Seat>,
    #[elicit(default = false)]
    insurance: bool,
}

#[derive(Elicit, Debug, PartialEq)]
enum Seat {
    /// Window
    Window,
    /// Aisle
    Aisle,
}

fn both() -> [Revision; 2] {
    [Revision::V2025_11_25, Revision::V2026_07_28]
}

/// Renders `T`'s schema for `revision` and validates it inside `ElicitRequestFormParams`.
fn rendered<T: Elicit>(revision: Revision) -> Value {
    let schema = Value::Object(T::requested_schema(revision));
    let params = json!({"mode": "form", "message": "Please answer", "requestedSchema": schema});
    validate_def(revision, "ElicitRequestFormParams", &params).unwrap_or_else(|e| panic!("{e}"));
    schema
}

fn read<T: Elicit>(content: Value) -> Result<T, FormError> {
    T::from_content(content.as_object().expect("an object"))
}

#[test]
fn approval() {
    for revision in both() {
        let schema = rendered::<Approval>(revision);
        assert_eq!(schema["required"], json!(["approve"]));
        assert_eq!(
            schema["properties"]["insurance"],
            json!({"type": "boolean", "default": false})
        );
    }
    assert_eq!(
        rendered::<Approval>(Revision::V2026_07_28)["properties"]["seat"],
        json!({"type": "string", "title": "Seat preference",
               "oneOf": [{"const": "Window", "title": "Window"}, {"const": "Aisle", "title": "Aisle"}]})
    );
    assert!(Approval::CONSENT);
    assert_eq!(Approval::FIELDS, ["approve", "seat", "insurance"]);
    let a: Approval = read(json!({"approve": true, "seat": "Aisle"})).unwrap();
    assert_eq!(
        a,
        Approval {
            approve: true,
            seat: Some(Seat::Aisle),
            insurance: false
        }
    );
    let e = read::<Approval>(json!({"seat": "Middle"})).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the answer does not fit the form: `approve` is required but missing; `seat` must be one of `Window`, `Aisle`, not `Middle`"
    );
}
