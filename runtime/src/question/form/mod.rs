//! Forms from types: the traits behind `#[derive(Elicit)]`.
//!
//! A form is a struct whose fields are the questions ([`Elicit`]); each field's type says what
//! the client shows ([`FormField`]): a text box (`String`), a number (`f64`, the integer types), a
//! checkbox (`bool`), a single choice (a unit enum, [`ElicitEnum`]) or a multiple choice
//! (`Vec<UnitEnum>`); `Option<T>` makes a field optional. The derive writes the schema MCP calls
//! the *restricted form schema* (a flat object of those primitives) and reads the answer back,
//! checking everything the schema says ([`FormError`] names each problem).

pub(crate) mod check;
mod enums;
mod error;
mod fields;
#[cfg(test)]
mod integer_tests;
pub(crate) mod spec;
#[cfg(test)]
mod tests;

#[doc(hidden)] // `#[derive(Elicit)]` on an enum, through `__private`
pub use enums::{enum_from_value, enum_schema, enum_to_value};
pub use error::{FieldError, FieldProblem, FormError, StringFormat};
#[doc(hidden)] // bounds that exist only to explain their own errors
pub use fields::{MapsAreNotFormFields, TuplesAreNotFormFields};

use crate::protocol::{JsonObject, Revision};
use serde_json::Value;

/// The `requestedSchema` of a form written by hand (see [`Elicit`]): an object with these
/// `properties`, of which `required` are required.
///
/// ```
/// use rondo_mcp::protocol::{JsonObject, Revision};
/// use rondo_mcp::FormField;
///
/// let mut properties = JsonObject::new();
/// properties.insert("ok".into(), bool::schema(Revision::V2026_07_28).into());
/// let schema = rondo_mcp::form::form_schema(properties, &["ok"]);
/// assert_eq!(schema["required"], serde_json::json!(["ok"]));
/// ```
pub fn form_schema(properties: JsonObject, required: &[&str]) -> JsonObject {
    let mut m = JsonObject::new();
    m.insert("type".into(), "object".into());
    m.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        m.insert("required".into(), serde_json::json!(required));
    }
    m
}

/// A form the user fills in (MCP elicitation, form mode). `#[derive(Elicit)]` on a struct
/// implements it; the struct's fields are the form's fields, in order.
///
/// A hand-written implementation, for what the derive cannot express:
///
/// ```
/// use rondo_mcp::protocol::{JsonObject, Revision};
/// use rondo_mcp::{Elicit, FormError, FormField};
///
/// /// A yes/no confirmation with an optional note.
/// struct Confirm {
///     ok: bool,
///     note: Option<String>,
/// }
///
/// impl Elicit for Confirm {
///     const FIELDS: &'static [&'static str] = &["ok", "note"];
///     const CONSENT: bool = true; // `ok` is a yes/no answer
///
///     fn requested_schema(revision: Revision) -> JsonObject {
///         let mut properties = JsonObject::new();
///         properties.insert("ok".into(), bool::schema(revision).into());
///         properties.insert("note".into(), <Option<String>>::schema(revision).into());
///         rondo_mcp::form::form_schema(properties, &["ok"])
///     }
///
///     fn from_content(content: &JsonObject) -> Result<Self, FormError> {
///         let ok = bool::from_value(content.get("ok"));
///         let note = <Option<String>>::from_value(content.get("note"));
///         match (ok, note) {
///             (Ok(ok), Ok(note)) => Ok(Confirm { ok, note }),
///             (ok, note) => Err(FormError::new(
///                 [("ok", ok.err()), ("note", note.err())]
///                     .into_iter()
///                     .filter_map(|(field, p)| p.map(|problem| rondo_mcp::form::FieldError {
///                         field: field.into(),
///                         problem,
///                     }))
///                     .collect(),
///             )),
///         }
///     }
/// }
///
/// let answer = serde_json::json!({"ok": true});
/// let confirm = Confirm::from_content(answer.as_object().unwrap()).unwrap();
/// assert!(confirm.ok && confirm.note.is_none());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a form",
    label = "not a struct with `#[derive(Elicit)]`",
    note = "a form is a struct whose fields are the questions: add `#[derive(rondo_mcp::Elicit)]` to it"
)]
pub trait Elicit: Sized {
    /// The fields' names on the wire, in declaration order.
    const FIELDS: &'static [&'static str];
    /// Whether the form carries consent: it has a `bool` field that is not marked
    /// `#[elicit(not_consent)]` (a yes/no answer is consent; the question layer never takes
    /// consent from anything but the user).
    const CONSENT: bool;
    /// The `requestedSchema` sent to a client of `revision`.
    fn requested_schema(revision: Revision) -> JsonObject;
    /// Parses and validates an accepted form's `content` (also used to build the answer from tool
    /// arguments when a tool takes the form's fields as arguments). Unknown keys are ignored; a
    /// field with a default that the content leaves out takes its default; nothing else is ever
    /// filled in.
    fn from_content(content: &JsonObject) -> Result<Self, FormError>;
}

/// What a form field is on the wire; `const` so the derive can check, at compile time, that an
/// attribute fits the field's type (`format` on a string, `min` on a number, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldKind {
    /// Free text: `type: string`.
    String,
    /// `type: number`.
    Number,
    /// `type: integer`.
    Integer,
    /// `type: boolean`: a yes/no answer.
    Boolean,
    /// A single choice among a unit enum's options: `type: string` with `enum` or `oneOf`.
    Enum,
    /// A multiple choice among a unit enum's options: `type: array`.
    MultiSelect,
}

impl FieldKind {
    /// Free text: takes `format`, `min_length`, `max_length`.
    pub const fn is_string(self) -> bool {
        matches!(self, FieldKind::String)
    }
    /// A number or an integer: takes `min`, `max`.
    pub const fn is_number(self) -> bool {
        matches!(self, FieldKind::Number | FieldKind::Integer)
    }
    /// A yes/no answer: makes the form carry consent.
    pub const fn is_boolean(self) -> bool {
        matches!(self, FieldKind::Boolean)
    }
    /// A multiple choice: takes `min_items`, `max_items`.
    pub const fn is_multi_select(self) -> bool {
        matches!(self, FieldKind::MultiSelect)
    }
}

/// One field type of a form: the spec's primitive subset. Implemented for `String`, `bool`, the
/// integer types up to 64 bits, `f32`/`f64`, `Option<T: FormField>` (an optional field),
/// `Vec<E: ElicitEnum>` (a multiple choice) and unit enums with `#[derive(Elicit)]`.
///
/// A hand-written implementation, for a newtype:
///
/// ```
/// use rondo_mcp::form::{FieldKind, FieldProblem};
/// use rondo_mcp::protocol::{JsonObject, Revision};
/// use rondo_mcp::FormField;
/// use serde_json::Value;
///
/// struct Nickname(String);
///
/// impl FormField for Nickname {
///     const KIND: FieldKind = FieldKind::String;
///     fn schema(revision: Revision) -> JsonObject {
///         let mut schema = String::schema(revision);
///         schema.insert("maxLength".into(), 20.into());
///         schema
///     }
///     fn from_value(value: Option<&Value>) -> Result<Self, FieldProblem> {
///         String::from_value(value).map(Nickname)
///     }
///     fn to_value(&self) -> Value {
///         self.0.to_value()
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a form field",
    label = "not a string, number, integer, boolean or unit enum",
    note = "MCP forms are flat: a field is a `String`, a `bool`, an integer or float type, a unit enum with `#[derive(Elicit)]`, an `Option` of one of these, or a `Vec` of such an enum (a multiple choice)",
    note = "a nested struct cannot be a field: put its fields into this form; see https://docs.rs/rondo-mcp/latest/rondo_mcp/trait.FormField.html"
)]
pub trait FormField: Sized {
    /// What the field is on the wire.
    const KIND: FieldKind;
    /// Whether the form requires the field (`false` for `Option`). A field with a default is
    /// never required, whatever its type.
    const REQUIRED: bool = true;
    /// The field's own schema (`type`, options, the range of an integer type), before the
    /// form adds `title`, `description`, bounds and `default`.
    fn schema(revision: Revision) -> JsonObject;
    /// Reads the field from the answer: `None` when the answer leaves it out or sends `null`.
    fn from_value(value: Option<&Value>) -> Result<Self, FieldProblem>;
    /// The value as JSON, for the schema's `default`; `null` means no default to show.
    fn to_value(&self) -> Value;
}

/// A unit enum with `#[derive(Elicit)]`: a single choice among its variants (a string enum,
/// titled when any variant has a title), or a multiple choice as `Vec<Self>`.
///
/// A hand-written implementation (the derive writes the same, and the `FormField` impl too):
///
/// ```
/// use rondo_mcp::form::{self, EnumOption, FieldKind, FieldProblem};
/// use rondo_mcp::protocol::{JsonObject, Revision};
/// use rondo_mcp::{ElicitEnum, FormField};
/// use serde_json::Value;
///
/// enum Size {
///     Small,
///     Large,
/// }
///
/// impl ElicitEnum for Size {
///     const OPTIONS: &'static [EnumOption] = &[
///         EnumOption { value: "s", title: Some("Small") },
///         EnumOption { value: "l", title: Some("Large") },
///     ];
///     fn from_wire(value: &str) -> Option<Self> {
///         match value {
///             "s" => Some(Size::Small),
///             "l" => Some(Size::Large),
///             _ => None,
///         }
///     }
///     fn to_wire(&self) -> &'static str {
///         match self {
///             Size::Small => "s",
///             Size::Large => "l",
///         }
///     }
/// }
///
/// impl FormField for Size {
///     const KIND: FieldKind = FieldKind::Enum;
///     fn schema(revision: Revision) -> JsonObject {
///         form::enum_schema::<Self>(revision)
///     }
///     fn from_value(value: Option<&Value>) -> Result<Self, FieldProblem> {
///         form::enum_from_value(value)
///     }
///     fn to_value(&self) -> Value {
///         form::enum_to_value(self)
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a unit enum with `#[derive(Elicit)]`",
    label = "a list field is a multiple choice among a unit enum's options",
    note = "a `Vec` form field is a multiple choice: `Vec<E>` where `E` is a unit enum with `#[derive(Elicit)]`; lists of other types cannot be form fields"
)]
pub trait ElicitEnum: Sized + 'static {
    /// The options, in declaration order.
    const OPTIONS: &'static [EnumOption];
    /// `#[elicit(legacy_enum_names)]`: a titled choice renders for 2025-11-25 clients as the
    /// legacy `enum` + `enumNames` form (which older clients understand) instead of `oneOf`;
    /// 2026-07-28 clients always get `oneOf`, the legacy form being deprecated there.
    const LEGACY_NAMES: bool = false;
    /// The variant whose wire value is `value`.
    fn from_wire(value: &str) -> Option<Self>;
    /// The variant's wire value.
    fn to_wire(&self) -> &'static str;
}

/// One option of an [`ElicitEnum`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EnumOption {
    /// The value on the wire.
    pub value: &'static str,
    /// What the user sees; when any option of an enum has a title, the enum is titled and an
    /// option without one shows its value.
    pub title: Option<&'static str>,
}
