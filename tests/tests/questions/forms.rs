//! `#[derive(Elicit)]`: every shape it renders, validated inside an `ElicitRequestFormParams`
//! against the official schema of both revisions, and the answers it reads back: round trips
//! and every kind of problem, with its message.

use rondo_mcp::form::{FieldProblem, StringFormat};
use rondo_mcp::protocol::Revision;
use rondo_mcp::{Elicit, FormError};
use rondo_tests::validate_def;
use serde_json::{Value, json};

const BOTH: [Revision; 2] = [Revision::V2025_11_25, Revision::V2026_07_28];

/// `T`'s schema for `revision`, validated as the `requestedSchema` of a form request.
fn rendered<T: Elicit>(revision: Revision) -> Value {
    let schema = Value::Object(T::requested_schema(revision));
    let params = json!({"mode": "form", "message": "Please answer", "requestedSchema": schema});
    validate_def(revision, "ElicitRequestFormParams", &params).unwrap_or_else(|e| panic!("{e}"));
    schema
}

/// `T`'s schema rendered for both revisions (each validated); the 2026-07-28 one.
fn schema<T: Elicit>() -> Value {
    let old = rendered::<T>(Revision::V2025_11_25);
    let new = rendered::<T>(Revision::V2026_07_28);
    assert_eq!(old["required"], new["required"]);
    new
}

fn read<T: Elicit>(content: Value) -> Result<T, FormError> {
    T::from_content(content.as_object().expect("an object"))
}

/// The one problem of `content` for `T`, as a value and as a sentence.
fn problem<T: Elicit + std::fmt::Debug>(content: Value) -> (FieldProblem, String) {
    let e = read::<T>(content).unwrap_err();
    assert_eq!(e.problems().len(), 1, "{e}");
    (e.problems()[0].problem.clone(), e.to_string())
}

#[derive(Elicit, Debug, PartialEq)]
struct Approval {
    /// Book this trip?
    approve: bool,
    /// Seat preference
    seat: Option<Seat>,
    #[elicit(default = false)]
    insurance: bool,
}

/// Titled: every variant has a title (from its doc comment or `title`).
#[derive(Elicit, Debug, PartialEq, serde::Deserialize)]
enum Seat {
    /// A window seat
    Window,
    #[elicit(title = "An aisle seat")]
    Aisle,
}

/// Untitled: no variant has a title.
#[derive(Elicit, Debug, PartialEq)]
#[elicit(rename_all = "lowercase")]
enum Meal {
    Vegan,
    Fish,
    Chicken,
}

#[test]
fn the_issue_example_round_trips() {
    let s = schema::<Approval>();
    assert_eq!(s["required"], json!(["approve"]));
    assert_eq!(
        s["properties"]["approve"],
        json!({"type": "boolean", "title": "Book this trip?"})
    );
    assert_eq!(
        s["properties"]["insurance"],
        json!({"type": "boolean", "default": false})
    );
    const { assert!(Approval::CONSENT) };
    assert_eq!(Approval::FIELDS, ["approve", "seat", "insurance"]);
    let a: Approval = read(json!({"approve": true, "seat": "Aisle", "unknown": [1]})).unwrap();
    let expected = Approval {
        approve: true,
        seat: Some(Seat::Aisle),
        insurance: false,
    };
    assert_eq!(a, expected);
    let b: Approval = read(json!({"approve": false, "seat": null, "insurance": true})).unwrap();
    assert_eq!((b.approve, b.seat, b.insurance), (false, None, true));
}

#[test]
fn titled_single_choice_carries_enum_names_on_2025_11_25_only() {
    let new = rendered::<Approval>(Revision::V2026_07_28);
    let old = rendered::<Approval>(Revision::V2025_11_25);
    let one_of = json!([
        {"const": "Window", "title": "A window seat"},
        {"const": "Aisle", "title": "An aisle seat"},
    ]);
    assert_eq!(
        new["properties"]["seat"],
        json!({"type": "string", "title": "Seat preference", "oneOf": one_of})
    );
    assert_eq!(
        old["properties"]["seat"], new["properties"]["seat"],
        "a titled choice is `oneOf` at both revisions unless the enum opts into the legacy form"
    );
}

/// A seat, for clients that show only the legacy `enumNames` titles.
#[derive(Elicit, Debug, PartialEq)]
#[elicit(legacy_enum_names)]
enum LegacySeat {
    /// A window seat
    Window,
    /// An aisle seat
    Aisle,
}

#[derive(Elicit, Debug)]
struct LegacyForm {
    seat: LegacySeat,
}

#[test]
fn legacy_enum_names_render_enum_names_for_2025_only() {
    let old = rendered::<LegacyForm>(Revision::V2025_11_25);
    assert_eq!(
        old["properties"]["seat"],
        json!({"type": "string", "enum": ["Window", "Aisle"],
               "enumNames": ["A window seat", "An aisle seat"]})
    );
    let new = rendered::<LegacyForm>(Revision::V2026_07_28);
    assert_eq!(
        new["properties"]["seat"]["oneOf"][0],
        json!({"const": "Window", "title": "A window seat"})
    );
    assert!(new["properties"]["seat"].get("enumNames").is_none());
    let read = LegacyForm::from_content(json!({"seat": "Aisle"}).as_object().unwrap()).unwrap();
    assert_eq!(read.seat, LegacySeat::Aisle);
}

#[derive(Elicit, Debug, PartialEq)]
struct Dinner {
    meal: Meal,
    #[elicit(default = Meal::Fish)]
    second: Option<Meal>,
    #[elicit(min_items = 1, max_items = 2)]
    sides: Vec<Side>,
    /// Drinks, if any
    drinks: Option<Vec<Meal>>,
}

#[derive(Elicit, Debug, PartialEq)]
enum Side {
    /// Chips
    Chips,
    Salad,
}

#[test]
fn choices_single_and_multiple_titled_and_untitled() {
    for revision in BOTH {
        let s = rendered::<Dinner>(revision);
        let p = &s["properties"];
        let meals = json!(["vegan", "fish", "chicken"]);
        assert_eq!(p["meal"], json!({"type": "string", "enum": meals}));
        assert_eq!(
            p["second"],
            json!({"type": "string", "enum": meals, "default": "fish"})
        );
        assert_eq!(
            p["sides"],
            json!({"type": "array", "minItems": 1, "maxItems": 2, "items": {"anyOf": [
                {"const": "Chips", "title": "Chips"}, {"const": "Salad", "title": "Salad"}]}})
        );
        assert_eq!(
            p["drinks"],
            json!({"type": "array", "title": "Drinks, if any",
                   "items": {"type": "string", "enum": meals}})
        );
        assert_eq!(s["required"], json!(["meal", "sides"]));
    }
    let d: Dinner = read(json!({"meal": "vegan", "sides": ["Salad", "Chips"]})).unwrap();
    assert_eq!(
        d,
        Dinner {
            meal: Meal::Vegan,
            second: Some(Meal::Fish),
            sides: vec![Side::Salad, Side::Chips],
            drinks: None
        }
    );
    const { assert!(!Dinner::CONSENT) };
}

#[derive(Elicit, Debug)]
#[elicit(rename_all = "camelCase")]
struct Contact {
    /// Your name
    ///
    /// As it should appear on the ticket.
    #[elicit(min_length = 2, max_length = 40, default = "Ada")]
    full_name: String,
    #[elicit(format = "email", title = "Email", description = "For the receipt")]
    email: Option<String>,
    #[elicit(format = "uri")]
    website: Option<String>,
    #[elicit(format = "date")]
    birthday: Option<String>,
    #[elicit(format = "date-time", rename = "callAt")]
    call_time: Option<String>,
}

#[test]
fn strings_with_formats_lengths_defaults_and_texts() {
    let s = schema::<Contact>();
    let p = &s["properties"];
    assert_eq!(
        p["fullName"],
        json!({"type": "string", "title": "Your name", "description": "As it should appear on the ticket.",
               "minLength": 2, "maxLength": 40, "default": "Ada"})
    );
    assert_eq!(
        p["email"],
        json!({"type": "string", "title": "Email", "description": "For the receipt", "format": "email"})
    );
    assert_eq!(p["website"]["format"], "uri");
    assert_eq!(p["birthday"]["format"], "date");
    assert_eq!(p["callAt"]["format"], "date-time");
    assert!(
        s.get("required").is_none(),
        "defaulted and optional fields are not required"
    );
    let c: Contact = read(json!({
        "email": "ada@example.com", "website": "https://example.com",
        "birthday": "1815-12-10", "callAt": "2026-07-28T09:30:00+01:00"
    }))
    .unwrap();
    assert_eq!(c.full_name, "Ada");
    assert_eq!(c.email.as_deref(), Some("ada@example.com"));
    assert_eq!(c.website.as_deref(), Some("https://example.com"));
    assert_eq!(c.birthday.as_deref(), Some("1815-12-10"));
    assert_eq!(c.call_time.as_deref(), Some("2026-07-28T09:30:00+01:00"));
}

#[derive(Elicit, Debug)]
struct Numbers {
    #[elicit(min = 1, max = 9)]
    travellers: u8,
    #[elicit(min = -10.5, max = 40)]
    celsius: f64,
    offset: i16,
    ratio: Option<f32>,
    #[elicit(default = 3)]
    nights: u32,
}

#[test]
fn numbers_and_integers_with_bounds() {
    let s = schema::<Numbers>();
    let p = &s["properties"];
    assert_eq!(
        p["travellers"],
        json!({"type": "integer", "minimum": 1, "maximum": 9})
    );
    assert_eq!(
        p["celsius"],
        json!({"type": "number", "minimum": -10.5, "maximum": 40})
    );
    assert_eq!(
        p["offset"],
        json!({"type": "integer", "minimum": -32768, "maximum": 32767})
    );
    assert_eq!(p["ratio"], json!({"type": "number"}));
    assert_eq!(
        p["nights"],
        json!({"type": "integer", "minimum": 0, "maximum": u32::MAX, "default": 3})
    );
    assert_eq!(s["required"], json!(["travellers", "celsius", "offset"]));
    let n: Numbers = read(json!({"travellers": 2.0, "celsius": -3.5, "offset": -7})).unwrap();
    assert_eq!(
        (n.travellers, n.celsius, n.offset, n.ratio, n.nights),
        (2, -3.5, -7, None, 3)
    );
}

#[derive(Elicit, Debug, serde::Deserialize, PartialEq)]
#[serde(rename_all = "kebab-case")]
struct Renamed {
    #[serde(rename = "who")]
    user_name: String,
    favourite_seat: Option<Seat>,
    #[elicit(rename = "ok")]
    all_good: bool,
}

#[test]
fn serde_renames_name_the_schema_and_the_parsing_alike() {
    let s = schema::<Renamed>();
    let names: Vec<&String> = s["properties"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["favourite-seat", "ok", "who"]);
    assert_eq!(Renamed::FIELDS, ["who", "favourite-seat", "ok"]);
    let answer = json!({"who": "Ada", "favourite-seat": "Window", "ok": true});
    let r: Renamed = read(answer.clone()).unwrap();
    assert_eq!(r.favourite_seat, Some(Seat::Window));
    let by_serde = json!({"who": "Ada", "favourite-seat": "Window", "all-good": true});
    let serde_read: Renamed = serde_json::from_value(by_serde).unwrap();
    assert_eq!(serde_read, r);
}

#[derive(Elicit, Debug)]
struct Empty {}

#[test]
fn an_empty_form_is_a_confirmation() {
    let s = schema::<Empty>();
    assert_eq!(s, json!({"type": "object", "properties": {}}));
    assert!(read::<Empty>(json!({"anything": 1})).is_ok());
    const { assert!(!Empty::CONSENT) };
}

#[test]
fn every_problem_is_named_with_its_field() {
    let (p, m) = problem::<Approval>(json!({}));
    assert_eq!(p, FieldProblem::Missing);
    assert_eq!(
        m,
        "the answer does not fit the form: `approve` is required but missing"
    );

    let (p, m) = problem::<Approval>(json!({"approve": "yes"}));
    assert_eq!(
        p,
        FieldProblem::WrongType {
            expected: "true or false",
            found: "a string"
        }
    );
    assert_eq!(
        m,
        "the answer does not fit the form: `approve` must be true or false, not a string"
    );

    let (_, m) = problem::<Approval>(json!({"approve": true, "seat": "Middle"}));
    assert_eq!(
        m,
        "the answer does not fit the form: `seat` must be one of `Window`, `Aisle`, not `Middle`"
    );

    let (_, m) = problem::<Approval>(json!({"approve": true, "seat": 3}));
    assert_eq!(
        m,
        "the answer does not fit the form: `seat` must be one of the options (a string), not a number"
    );

    let ok = json!({"travellers": 2, "celsius": 0, "offset": 0});
    let with = |k: &str, v: Value| {
        let mut o = ok.clone();
        o[k] = v;
        o
    };
    let (p, m) = problem::<Numbers>(with("travellers", json!(12)));
    assert!(matches!(p, FieldProblem::TooLarge { .. }));
    assert_eq!(
        m,
        "the answer does not fit the form: `travellers` must be at most 9, not 12"
    );
    let (_, m) = problem::<Numbers>(with("celsius", json!(-11)));
    assert_eq!(
        m,
        "the answer does not fit the form: `celsius` must be at least -10.5, not -11"
    );
    let (_, m) = problem::<Numbers>(with("offset", json!(40000)));
    assert_eq!(
        m,
        "the answer does not fit the form: `offset` must be at most 32767, not 40000"
    );
    let (_, m) = problem::<Numbers>(with("offset", json!(1.5)));
    assert_eq!(
        m,
        "the answer does not fit the form: `offset` must be an integer, not a number with a fraction"
    );
    let (_, m) = problem::<Numbers>(with("celsius", json!("warm")));
    assert_eq!(
        m,
        "the answer does not fit the form: `celsius` must be a number, not a string"
    );

    let (p, m) = problem::<Contact>(json!({"fullName": "A"}));
    assert_eq!(
        p,
        FieldProblem::TooShort {
            min_length: 2,
            found: 1
        }
    );
    assert_eq!(
        m,
        "the answer does not fit the form: `fullName` must be at least 2 characters long, not 1"
    );
    let (_, m) = problem::<Contact>(json!({"fullName": "x".repeat(41)}));
    assert_eq!(
        m,
        "the answer does not fit the form: `fullName` must be at most 40 characters long, not 41"
    );
    let (p, m) = problem::<Contact>(json!({"email": "ada@example"}));
    assert_eq!(
        p,
        FieldProblem::BadFormat {
            format: StringFormat::Email
        }
    );
    assert_eq!(
        m,
        "the answer does not fit the form: `email` must be an email address"
    );
    let (_, m) = problem::<Contact>(json!({"website": "example.com"}));
    assert_eq!(
        m,
        "the answer does not fit the form: `website` must be a URI with a scheme, such as `https://example.com`"
    );
    let (_, m) = problem::<Contact>(json!({"birthday": "10/12/1815"}));
    assert_eq!(
        m,
        "the answer does not fit the form: `birthday` must be a date written YYYY-MM-DD"
    );
    let (_, m) = problem::<Contact>(json!({"callAt": "tomorrow"}));
    assert_eq!(
        m,
        "the answer does not fit the form: `callAt` must be a date and time in RFC 3339 form, such as `2026-07-28T09:30:00Z`"
    );

    let (p, m) = problem::<Dinner>(json!({"meal": "fish", "sides": []}));
    assert_eq!(
        p,
        FieldProblem::TooFewItems {
            min_items: 1,
            found: 0
        }
    );
    assert_eq!(
        m,
        "the answer does not fit the form: `sides` must have at least 1 item, not 0"
    );
    let (_, m) = problem::<Dinner>(json!({"meal": "fish", "sides": ["Chips", "Chips", "Salad"]}));
    assert_eq!(
        m,
        "the answer does not fit the form: `sides` must have at most 2 items, not 3"
    );
    let (_, m) = problem::<Dinner>(json!({"meal": "fish", "sides": ["Soup"]}));
    assert_eq!(
        m,
        "the answer does not fit the form: `sides` must be one of `Chips`, `Salad`, not `Soup`"
    );
    let (_, m) = problem::<Dinner>(json!({"meal": "fish", "sides": "Chips"}));
    assert_eq!(
        m,
        "the answer does not fit the form: `sides` must be a list of options (strings), not a string"
    );
}

#[test]
fn all_problems_at_once_in_field_order() {
    let e = read::<Numbers>(json!({"travellers": 0, "offset": "x", "nights": -1})).unwrap_err();
    let fields: Vec<&str> = e.problems().iter().map(|p| p.field.as_str()).collect();
    assert_eq!(fields, ["travellers", "celsius", "offset", "nights"]);
    assert_eq!(e.missing().collect::<Vec<_>>(), ["celsius"]);
    assert_eq!(
        e.to_string(),
        "the answer does not fit the form: `travellers` must be at least 1, not 0; \
         `celsius` is required but missing; `offset` must be an integer, not a string; \
         `nights` must be at least 0, not -1"
    );
}

#[test]
fn consent_comes_from_yes_no_fields_not_marked_otherwise() {
    #[derive(Elicit)]
    #[allow(dead_code)]
    struct Preferences {
        #[elicit(not_consent)]
        newsletter: bool,
        name: String,
    }
    #[derive(Elicit)]
    #[allow(dead_code)]
    struct MaybeConsent {
        agree: Option<bool>,
    }
    const { assert!(!Preferences::CONSENT) };
    const { assert!(MaybeConsent::CONSENT) };
    const { assert!(Approval::CONSENT) };
}
