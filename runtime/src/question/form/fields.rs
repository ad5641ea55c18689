//! The field types of the spec's primitive subset, and the types that are refused with a
//! message of their own (maps, tuples).

use super::check::Bound;
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

/// The largest integer that every float up to it holds exactly (JavaScript's
/// `Number.MAX_SAFE_INTEGER`, 2^53 - 1).
const SAFE_FLOAT_INTEGER: i128 = (1 << 53) - 1;

/// The integer a JSON number stands for, exactly: an integer literal that serde_json read as
/// `i64` or `u64`, or a float with no fraction (as some JavaScript clients send `3.0`) within
/// ±(2^53 - 1). A float beyond that is refused even when integral: it may not be the integer
/// the client wrote (`-9223372036854775809` reads as the float -2^63, `i64::MIN`), and a
/// literal past 64 bits reaches here as such a float.
fn integral(n: &Number) -> Result<i128, FieldProblem> {
    if let Some(i) = n.as_i64() {
        return Ok(i.into());
    }
    if let Some(u) = n.as_u64() {
        return Ok(u.into());
    }
    let f = n.as_f64().unwrap_or(f64::NAN);
    if f.fract() != 0.0 || !f.is_finite() {
        return Err(FieldProblem::WrongType {
            expected: "an integer",
            found: "a number with a fraction",
        });
    }
    // Integral and within ±2^53: the cast is exact (and `-0.0` is 0).
    if f.abs() > SAFE_FLOAT_INTEGER as f64 {
        return Err(FieldProblem::Inexact { found: n.clone() });
    }
    Ok(f as i128)
}

/// Reads an integer of type `T`, whose range is `min..=max`: exact, and converted with
/// `TryFrom`, never `as`.
fn integer<T: TryFrom<i128>>(
    value: Option<&Value>,
    min: i128,
    max: i128,
) -> Result<T, FieldProblem> {
    let n = match value {
        Some(Value::Number(n)) => n,
        other => return Err(wrong("an integer", other)),
    };
    let i = integral(n)?;
    T::try_from(i).map_err(|_| {
        if i < min {
            FieldProblem::TooSmall {
                minimum: Bound::Int(min).number(),
                found: n.clone(),
            }
        } else {
            FieldProblem::TooLarge {
                maximum: Bound::Int(max).number(),
                found: n.clone(),
            }
        }
    })
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
                // The bounds widen to `i128` exactly (every type here has at most 64 bits).
                integer(value, <$t>::MIN as i128, <$t>::MAX as i128)
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
