//! What `#[derive(Elicit)]` writes down about each field ([`FieldSpec`]), and the two things done
//! with it: rendering the `requestedSchema` ([`FormSchema`]) and reading an answer back
//! ([`FormReader`]). Both read the same spec, so the schema and the checks cannot disagree.

use super::check::{self, Bound};
use super::error::{FieldError, FieldProblem, FormError, StringFormat};
use crate::protocol::{JsonObject, Revision};
use serde_json::{Value, json};
use std::cmp::Ordering;

/// One field of a derived form: its wire name and what its attributes and doc comment add to its
/// type's schema. Built in `const` by the derive.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FieldSpec {
    /// The name on the wire.
    pub name: &'static str,
    /// `title`: from `title = ".."` or the doc comment's first paragraph.
    pub title: Option<&'static str>,
    /// `description`: from `description = ".."` or the rest of the doc comment.
    pub description: Option<&'static str>,
    /// `min = ..`: narrows an integer type's own range, never widens it.
    pub minimum: Option<Bound>,
    /// `max = ..`: narrows an integer type's own range, never widens it.
    pub maximum: Option<Bound>,
    /// `min_length = ..` (characters).
    pub min_length: Option<u64>,
    /// `max_length = ..` (characters).
    pub max_length: Option<u64>,
    /// `min_items = ..`.
    pub min_items: Option<u64>,
    /// `max_items = ..`.
    pub max_items: Option<u64>,
    /// `format = ".."`.
    pub format: Option<StringFormat>,
}

impl FieldSpec {
    /// A field named `name` on the wire, with nothing added.
    pub const fn new(name: &'static str) -> Self {
        FieldSpec {
            name,
            title: None,
            description: None,
            minimum: None,
            maximum: None,
            min_length: None,
            max_length: None,
            min_items: None,
            max_items: None,
            format: None,
        }
    }
    /// With a `title`.
    pub const fn title(mut self, title: &'static str) -> Self {
        self.title = Some(title);
        self
    }
    /// With a `description`.
    pub const fn description(mut self, description: &'static str) -> Self {
        self.description = Some(description);
        self
    }
    /// With a `minimum`.
    pub const fn min(mut self, min: Bound) -> Self {
        self.minimum = Some(min);
        self
    }
    /// With a `maximum`.
    pub const fn max(mut self, max: Bound) -> Self {
        self.maximum = Some(max);
        self
    }
    /// With a `minLength`.
    pub const fn min_length(mut self, n: u64) -> Self {
        self.min_length = Some(n);
        self
    }
    /// With a `maxLength`.
    pub const fn max_length(mut self, n: u64) -> Self {
        self.max_length = Some(n);
        self
    }
    /// With a `minItems`.
    pub const fn min_items(mut self, n: u64) -> Self {
        self.min_items = Some(n);
        self
    }
    /// With a `maxItems`.
    pub const fn max_items(mut self, n: u64) -> Self {
        self.max_items = Some(n);
        self
    }
    /// With a `format`.
    pub const fn format(mut self, format: StringFormat) -> Self {
        self.format = Some(format);
        self
    }

    /// Adds what the spec says to the type's own schema.
    fn annotate(&self, schema: &mut JsonObject) {
        let mut put = |key: &str, value: Option<Value>| {
            if let Some(v) = value {
                schema.insert(key.into(), v);
            }
        };
        put("title", self.title.map(Value::from));
        put("description", self.description.map(Value::from));
        put("minLength", self.min_length.map(Value::from));
        put("maxLength", self.max_length.map(Value::from));
        put("format", self.format.map(|f| f.as_str().into()));
        put("minItems", self.min_items.map(Value::from));
        put("maxItems", self.max_items.map(Value::from));
        narrow(schema, "minimum", self.minimum, Ordering::Greater);
        narrow(schema, "maximum", self.maximum, Ordering::Less);
    }

    /// The checks the attributes add, on a value the type has accepted.
    fn check(&self, value: &Value) -> Result<(), FieldProblem> {
        match value {
            Value::String(s) => {
                check::length(s, self.min_length, self.max_length)?;
                self.format.map_or(Ok(()), |f| check::format(s, f))
            }
            Value::Number(n) => check::bounds(n, self.minimum, self.maximum),
            Value::Array(items) => check::items(items, self.min_items, self.max_items),
            _ => Ok(()),
        }
    }
}

/// Sets `key` to `bound` unless the schema already has a bound that is tighter (`tighter` is how
/// a tighter bound compares with a looser one).
fn narrow(schema: &mut JsonObject, key: &str, bound: Option<Bound>, tighter: Ordering) {
    let Some(bound) = bound else { return };
    let own = schema.get(key).and_then(Value::as_number).map(Bound::of);
    if own.is_none_or(|own| bound.compare(own) == tighter) {
        schema.insert(key.into(), bound.number().into());
    }
}

/// Renders a derived form's `requestedSchema`, one field at a time.
pub struct FormSchema {
    /// The revision of the client it is for.
    revision: Revision,
    /// `properties`, by wire name.
    properties: JsonObject,
    /// `required`, in declaration order.
    required: Vec<&'static str>,
}

impl FormSchema {
    /// An empty form for a client of `revision`.
    pub fn new(revision: Revision) -> Self {
        FormSchema {
            revision,
            properties: JsonObject::new(),
            required: Vec::new(),
        }
    }

    /// The revision the schema is for.
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// Adds a field: its type's `schema`, whether the type is `required`, and its `default` as
    /// JSON. A field with a default shows it (unless it is `null`) and is not required.
    /// In debug builds, a default that fails the spec's own checks panics. (The
    /// derive passes `<T as FormField>::..` items rather than `T`, so that a type that is not a
    /// form field is one error at the user's type, not one per use.)
    pub fn field(
        &mut self,
        spec: &FieldSpec,
        mut schema: JsonObject,
        required: bool,
        default: Option<Value>,
    ) {
        spec.annotate(&mut schema);
        if let Some(Err(problem)) = default.as_ref().map(|d| spec.check(d)) {
            // A programming error in the form's own attributes, caught on the first rendering
            // of a debug build (tests); release builds send the default as written.
            debug_assert!(
                false,
                "the default of form field `{}` does not fit its own attributes: it {problem}",
                spec.name
            );
        }
        if required && default.is_none() {
            self.required.push(spec.name);
        }
        if let Some(value) = default.filter(|v| !v.is_null()) {
            schema.insert("default".into(), value);
        }
        self.properties.insert(spec.name.into(), schema.into());
    }

    /// The `requestedSchema`: `type: object`, `properties`, and `required` when any field is.
    pub fn finish(self) -> JsonObject {
        let mut form = JsonObject::new();
        form.insert("type".into(), "object".into());
        form.insert("properties".into(), self.properties.into());
        if !self.required.is_empty() {
            form.insert("required".into(), json!(self.required));
        }
        form
    }
}

/// Reads an accepted form's `content`, one field at a time, keeping every problem.
pub struct FormReader<'a> {
    /// The answer.
    content: &'a JsonObject,
    /// The problems found so far, in field order.
    problems: Vec<FieldError>,
}

impl<'a> FormReader<'a> {
    /// Starts reading `content`.
    pub fn new(content: &'a JsonObject) -> Self {
        FormReader {
            content,
            problems: Vec::new(),
        }
    }

    /// Reads a field with its type's `read` (`FormField::from_value`): its `default` when the
    /// answer leaves it out (or sends `null`) and it has one, else the type's reading plus the
    /// spec's checks. `None` when there is a problem, which is kept.
    pub fn field<T>(
        &mut self,
        spec: &FieldSpec,
        read: fn(Option<&Value>) -> Result<T, FieldProblem>,
        default: Option<fn() -> T>,
    ) -> Option<T> {
        let value = self.content.get(spec.name).filter(|v| !v.is_null());
        let got = match (value, default) {
            (None, Some(default)) => Ok(default()),
            (None, None) => read(None),
            (Some(v), _) => read(Some(v)).and_then(|t| spec.check(v).map(|()| t)),
        };
        match got {
            Ok(t) => Some(t),
            Err(problem) => {
                let field = spec.name.to_owned();
                self.problems.push(FieldError { field, problem });
                None
            }
        }
    }

    /// The problems found, once a field came back `None`.
    pub fn error(self) -> FormError {
        FormError::new(self.problems)
    }
}
