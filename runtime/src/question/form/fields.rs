//! The field types of the spec's primitive subset, and the types that are refused with a
//! message of their own (maps, tuples).

use super::enums::{multi_from_value, multi_schema};
use super::error::{FieldProblem, json_kind};
use super::{ElicitEnum, FieldKind, FormField};
use crate::protocol::{JsonObject, Revision};
use serde_json::{Number, Value};

/// `{"type": ty}`.
fn typed(ty: &str) -> JsonObject {
    let mut schema = JsonObject::new();
    schema.insert("type".into(), ty.into());
    schema
}

/// A present value of the wrong JSON type, or a missing one.
fn wrong(expected: &'static str, value: Option<&Value>) -> FieldProblem {
    match value {
        None => FieldProblem::Missing,
        Some(v) => FieldProblem::WrongType {
            expected,
            found: json_kind(v),
        },
    }
}

impl FormField for String {
    const KIND: FieldKind = FieldKind::String;
    fn schema(_: Revision) -> JsonObject {
        typed("string")
    }
    fn from_value(value: Option<&Value>) -> Result<Self, FieldProblem> {
        match value {
            Some(Value::String(s)) => Ok(s.clone()),
            other => Err(wrong("a string", other)),
        }
    }
    fn to_value(&self) -> Value {
        Value::String(self.clone())
    }
}

impl FormField for bool {
    const KIND: FieldKind = FieldKind::Boolean;
    fn schema(_: Revision) -> JsonObject {
        typed("boolean")
    }
    fn from_value(value: Option<&Value>) -> Result<Self, FieldProblem> {
        match value {
            Some(Value::Bool(b)) => Ok(*b),
            other => Err(wrong("true or false", other)),
        }
    }
    fn to_value(&self) -> Value {
        Value::Bool(*self)
    }
}

/// An integer in a JSON number: an integer, or a float with no fraction (as some JavaScript
/// clients send `3.0`), as `i128`; `None` for a fraction.
fn integral(n: &Number) -> Option<i128> {
    if let Some(i) = n.as_i64() {
        return Some(i.into());
    }
    if let Some(u) = n.as_u64() {
        return Some(u.into());
    }
    let f = n.as_f64()?;
    // Beyond ±2^127 the cast saturates, which the range check then reports.
    (f.fract() == 0.0).then_some(f as i128)
}

/// Reads an integer of the range `min..=max`.
fn integer(value: Option<&Value>, min: i128, max: i128) -> Result<i128, FieldProblem> {
    let n = match value {
        Some(Value::Number(n)) => n,
        other => return Err(wrong("an integer", other)),
    };
    let i = integral(n).ok_or(FieldProblem::WrongType {
        expected: "an integer",
        found: "a number with a fraction",
    })?;
    super::check::bounds(
        n,
        Some(super::check::Bound::Int(min)),
        Some(super::check::Bound::Int(max)),
    )?;
    Ok(i)
}

/// The integer types: `type: integer` with the type's range as `minimum`/`maximum`, so the
/// client knows what fits and the answer is checked against it.
macro_rules! integers {
    ($($t:ty)*) => {$(
        impl FormField for $t {
            const KIND: FieldKind = FieldKind::Integer;
            fn schema(_: Revision) -> JsonObject {
                let mut schema = typed("integer");
                schema.insert("minimum".into(), <$t>::MIN.into());
                schema.insert("maximum".into(), <$t>::MAX.into());
                schema
            }
            fn from_value(value: Option<&Value>) -> Result<Self, FieldProblem> {
                let i = integer(value, <$t>::MIN as i128, <$t>::MAX as i128)?;
                // In range: checked just above.
                Ok(i as $t)
            }
            fn to_value(&self) -> Value {
                (*self).into()
            }
        }
    )*};
}
integers!(i8 i16 i32 i64 isize u8 u16 u32 u64 usize);

/// Reads a number as `f64`.
fn number(value: Option<&Value>) -> Result<f64, FieldProblem> {
    match value {
        Some(Value::Number(n)) => Ok(n.as_f64().unwrap_or(f64::NAN)),
        other => Err(wrong("a number", other)),
    }
}

impl FormField for f64 {
    const KIND: FieldKind = FieldKind::Number;
    fn schema(_: Revision) -> JsonObject {
        typed("number")
    }
    fn from_value(value: Option<&Value>) -> Result<Self, FieldProblem> {
        number(value)
    }
    fn to_value(&self) -> Value {
        Number::from_f64(*self).map_or(Value::Null, Value::Number)
    }
}

impl FormField for f32 {
    const KIND: FieldKind = FieldKind::Number;
    fn schema(_: Revision) -> JsonObject {
        typed("number")
    }
    fn from_value(value: Option<&Value>) -> Result<Self, FieldProblem> {
        let f = number(value)?;
        if let Some(Value::Number(n)) = value {
            let max = f64::from(f32::MAX);
            super::check::bounds(
                n,
                Some(super::check::Bound::Float(-max)),
                Some(super::check::Bound::Float(max)),
            )?;
        }
        Ok(f as f32)
    }
    fn to_value(&self) -> Value {
        f64::from(*self).to_value()
    }
}

/// An optional field: not required; absent or `null` is `None`.
impl<T: FormField> FormField for Option<T> {
    const KIND: FieldKind = T::KIND;
    const REQUIRED: bool = false;
    fn schema(revision: Revision) -> JsonObject {
        T::schema(revision)
    }
    fn from_value(value: Option<&Value>) -> Result<Self, FieldProblem> {
        value.map(|v| T::from_value(Some(v))).transpose()
    }
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, T::to_value)
    }
}

/// A multiple choice among a unit enum's options.
impl<E: ElicitEnum> FormField for Vec<E> {
    const KIND: FieldKind = FieldKind::MultiSelect;
    fn schema(_: Revision) -> JsonObject {
        multi_schema::<E>()
    }
    fn from_value(value: Option<&Value>) -> Result<Self, FieldProblem> {
        multi_from_value(value)
    }
    fn to_value(&self) -> Value {
        self.iter().map(|e| Value::from(e.to_wire())).collect()
    }
}

/// Never implemented: a map is refused as a form field with this message (the `FormField` impls
/// of the map types require it; its parameter is the map, so rustc reports this bound, whose self
/// type `()` differs from the field's, rather than the `FormField` one).
#[diagnostic::on_unimplemented(
    message = "`{T}` is a map, which cannot be a form field",
    label = "MCP forms are flat: a field is a string, number, integer, boolean or enum",
    note = "make each entry a field of this form, or let the user pick keys with a multiple choice (`Vec<E>` of a unit enum `E` with `#[derive(Elicit)]`)"
)]
pub trait MapsAreNotFormFields<T> {}

/// Never implemented: a tuple is refused as a form field with this message (as
/// [`MapsAreNotFormFields`]).
#[diagnostic::on_unimplemented(
    message = "`{T}` is a tuple, which cannot be a form field",
    label = "MCP forms are flat: a field is a string, number, integer, boolean or enum",
    note = "make each element a field of this form, with its own name"
)]
pub trait TuplesAreNotFormFields<T> {}

/// The body of a refused type's impl: never run, since its bound never holds.
macro_rules! refused_body {
    () => {
        const KIND: FieldKind = FieldKind::String;
        fn schema(_: Revision) -> JsonObject {
            JsonObject::new()
        }
        fn from_value(_: Option<&Value>) -> Result<Self, FieldProblem> {
            Err(FieldProblem::Missing)
        }
        fn to_value(&self) -> Value {
            Value::Null
        }
    };
}

impl<K, V, S> FormField for std::collections::HashMap<K, V, S>
where
    (): MapsAreNotFormFields<Self>,
{
    refused_body!();
}

impl<K, V> FormField for std::collections::BTreeMap<K, V>
where
    (): MapsAreNotFormFields<Self>,
{
    refused_body!();
}

impl<A, B> FormField for (A, B)
where
    (): TuplesAreNotFormFields<Self>,
{
    refused_body!();
}

impl<A, B, C> FormField for (A, B, C)
where
    (): TuplesAreNotFormFields<Self>,
{
    refused_body!();
}
