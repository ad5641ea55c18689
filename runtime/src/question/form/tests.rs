//! The field types, the spec's rendering and the reader, without the derive.

use super::check::Bound;
use super::spec::{FieldSpec, FormReader, FormSchema};
use super::*;
use crate::__private::default_value;
use serde_json::{Value, json};

#[derive(Debug, PartialEq)]
enum Seat {
    Window,
    Aisle,
}

impl ElicitEnum for Seat {
    const OPTIONS: &'static [EnumOption] = &[
        EnumOption {
            value: "window",
            title: Some("Window seat"),
        },
        EnumOption {
            value: "aisle",
            title: None,
        },
    ];
    fn from_wire(value: &str) -> Option<Self> {
        match value {
            "window" => Some(Seat::Window),
            "aisle" => Some(Seat::Aisle),
            _ => None,
        }
    }
    fn to_wire(&self) -> &'static str {
        match self {
            Seat::Window => "window",
            Seat::Aisle => "aisle",
        }
    }
}

impl FormField for Seat {
    const KIND: FieldKind = FieldKind::Enum;
    fn schema(revision: Revision) -> JsonObject {
        enum_schema::<Self>(revision)
    }
    fn from_value(value: Option<&Value>) -> Result<Self, FieldProblem> {
        enum_from_value(value)
    }
    fn to_value(&self) -> Value {
        enum_to_value(self)
    }
}

const AGE: FieldSpec = FieldSpec::new("age")
    .min(Bound::Int(18))
    .max(Bound::Int(300));
const EMAIL: FieldSpec = FieldSpec::new("email")
    .title("Email")
    .format(StringFormat::Email)
    .max_length(40);
const SEATS: FieldSpec = FieldSpec::new("seats").min_items(1);

fn schema(revision: Revision) -> Value {
    fn add<T: FormField>(form: &mut FormSchema, spec: &FieldSpec, default: Option<T>) {
        let (schema, required) = (T::schema(form.revision()), T::REQUIRED);
        form.field(spec, schema, required, default.map(|d| d.to_value()));
    }
    let mut form = FormSchema::new(revision);
    add::<u8>(&mut form, &AGE, None);
    add::<Option<String>>(&mut form, &EMAIL, Some(default_value("ada@example.com")));
    add::<Option<Seat>>(
        &mut form,
        &FieldSpec::new("seat"),
        Some(default_value(Seat::Aisle)),
    );
    add::<Vec<Seat>>(&mut form, &SEATS, None);
    add::<u32>(&mut form, &FieldSpec::new("count"), Some(default_value(3)));
    Value::Object(form.finish())
}

#[test]
fn renders_the_restricted_form_schema() {
    assert_eq!(
        schema(Revision::V2026_07_28),
        json!({
            "type": "object",
            "properties": {
                "age": {"type": "integer", "minimum": 18, "maximum": 255},
                "email": {"type": "string", "title": "Email", "format": "email", "maxLength": 40,
                          "default": "ada@example.com"},
                "seat": {"type": "string", "default": "aisle", "oneOf": [
                    {"const": "window", "title": "Window seat"},
                    {"const": "aisle", "title": "aisle"}]},
                "seats": {"type": "array", "minItems": 1, "items": {"anyOf": [
                    {"const": "window", "title": "Window seat"},
                    {"const": "aisle", "title": "aisle"}]}},
                "count": {"type": "integer", "minimum": 0, "maximum": u32::MAX, "default": 3},
            },
            "required": ["age", "seats"],
        })
    );
    // A titled choice is `oneOf` on 2025-11-25 too, unless the enum asks for the legacy form.
    let legacy = schema(Revision::V2025_11_25);
    assert_eq!(
        legacy["properties"]["seat"],
        schema(Revision::V2026_07_28)["properties"]["seat"]
    );
}

fn read(content: Value) -> Result<(u8, Option<String>, Vec<Seat>, u32), FormError> {
    let content = content.as_object().cloned().unwrap_or_default();
    let mut r = FormReader::new(&content);
    let age = r.field(&AGE, u8::from_value, None);
    let email = r.field(&EMAIL, <Option<String>>::from_value, None);
    let seats = r.field(&SEATS, <Vec<Seat>>::from_value, None);
    let count = r.field(&FieldSpec::new("count"), u32::from_value, Some(|| 3));
    match (age, email, seats, count) {
        (Some(a), Some(e), Some(s), Some(c)) => Ok((a, e, s, c)),
        _ => Err(r.error()),
    }
}

#[test]
fn reads_and_checks_an_answer() {
    let ok = read(json!({"age": 30.0, "seats": ["aisle", "window"], "extra": 1}));
    assert_eq!(ok, Ok((30, None, vec![Seat::Aisle, Seat::Window], 3)));
    let err = read(json!({
        "age": 12, "email": "ada", "seats": ["middle"], "count": -1
    }))
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the answer does not fit the form: `age` must be at least 18, not 12; \
         `email` must be an email address; `seats` must be one of `window`, `aisle`, not `middle`; \
         `count` must be at least 0, not -1"
    );
    let err = read(json!({"age": 256, "email": 3, "seats": []})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the answer does not fit the form: `age` must be at most 255, not 256; \
         `email` must be a string, not a number; `seats` must have at least 1 item, not 0"
    );
    let err = read(json!({"age": 1.5, "email": null})).unwrap_err();
    assert_eq!(err.missing().collect::<Vec<_>>(), ["seats"]);
    assert_eq!(
        err.to_string(),
        "the answer does not fit the form: `age` must be an integer, not a number with a \
         fraction; `seats` is required but missing"
    );
}

#[test]
fn floats_and_booleans() {
    assert_eq!(f32::from_value(Some(&json!(1.5))), Ok(1.5));
    assert!(matches!(
        f32::from_value(Some(&json!(1e300))),
        Err(FieldProblem::TooLarge { .. })
    ));
    assert_eq!(
        bool::from_value(Some(&json!("true"))),
        Err(FieldProblem::WrongType {
            expected: "true or false",
            found: "a string"
        })
    );
    assert_eq!(i64::from_value(Some(&json!(i64::MIN))), Ok(i64::MIN));
    assert_eq!(u64::from_value(Some(&json!(u64::MAX))), Ok(u64::MAX));
    assert!(u64::from_value(Some(&json!(-1))).is_err());
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(
    expected = "the default of form field `age` does not fit its own attributes: it must be at least 18, not 3"
)]
fn a_default_outside_its_own_bounds_panics_in_debug_builds() {
    let mut form = FormSchema::new(Revision::V2026_07_28);
    form.field(
        &AGE,
        u8::schema(Revision::V2026_07_28),
        true,
        Some(json!(3)),
    );
}
