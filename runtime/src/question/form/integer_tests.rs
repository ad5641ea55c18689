//! Integer fields: every integer type reads exactly the integers it holds and refuses every
//! other number, never converting one that is out of its range or inexact (issue 12: `as`
//! wrapped 2^63 to `i64::MIN`).

use super::{FieldProblem, FormField};
use proptest::prelude::*;
use serde_json::{Number, Value, json};

/// The largest integer every `f64` up to it holds exactly (JavaScript's `MAX_SAFE_INTEGER`).
const SAFE: i128 = (1 << 53) - 1;

/// A JSON number as a client would send it: parsed from text, as serde_json reads the wire.
fn wire(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// What reading `value` as an integer of the range `min..=max` must give: the integer when the
/// number is exactly one in range, nothing otherwise.
fn expected(value: &Value, min: i128, max: i128) -> Option<i128> {
    let n = value.as_number()?;
    let exact = if let Some(i) = n.as_i64() {
        Some(i128::from(i))
    } else if let Some(u) = n.as_u64() {
        Some(i128::from(u))
    } else {
        let f = n.as_f64()?;
        // A float is an integer only when it has no fraction and lies where floats are exact.
        (f.fract() == 0.0 && f.abs() <= SAFE as f64).then_some(f as i128)
    };
    exact.filter(|i| (min..=max).contains(i))
}

macro_rules! each_integer_type {
    ($($t:ident)*) => {$(
        mod $t {
            use super::*;

            const MIN: i128 = <$t>::MIN as i128;
            const MAX: i128 = <$t>::MAX as i128;

            fn read(value: &Value) -> Option<i128> {
                <$t as FormField>::from_value(Some(value)).ok().map(|v| i128::try_from(v).unwrap())
            }

            /// An `i128` as a JSON number as text (serde_json reads what does not fit 64 bits
            /// as a float, as it would from the wire).
            fn number(i: i128) -> Value {
                wire(&i.to_string())
            }

            #[test]
            fn bounds_and_their_neighbours() {
                assert_eq!(read(&number(MIN)), Some(MIN));
                assert_eq!(read(&number(MAX)), Some(MAX));
                assert_eq!(read(&number(MIN - 1)), None, "{} - 1", MIN);
                assert_eq!(read(&number(MAX + 1)), None, "{} + 1", MAX);
                for f in [MIN as f64, MAX as f64, (MIN - 1) as f64, (MAX + 1) as f64] {
                    let v = Value::Number(Number::from_f64(f).unwrap());
                    assert_eq!(read(&v), expected(&v, MIN, MAX), "{f:e}");
                }
            }

            proptest! {
                #[test]
                fn integers_read_exactly(i in any::<i128>()) {
                    let v = number(i);
                    prop_assert_eq!(read(&v), expected(&v, MIN, MAX));
                }

                #[test]
                fn integers_near_the_bounds(d in -1000i128..1000) {
                    for i in [MIN + d, MAX + d] {
                        let v = number(i);
                        let want = (MIN..=MAX).contains(&i).then_some(i);
                        prop_assert_eq!(read(&v), want, "{}", i);
                    }
                }

                #[test]
                fn floats_are_never_converted_inexactly(f in any::<f64>()) {
                    let Some(n) = Number::from_f64(f) else { return Ok(()) };
                    let v = Value::Number(n);
                    prop_assert_eq!(read(&v), expected(&v, MIN, MAX), "{:e}", f);
                }

                #[test]
                fn floats_near_the_bounds(d in -4096.0f64..4096.0) {
                    for f in [MIN as f64 + d, MAX as f64 + d, d.trunc(), d] {
                        let v = Value::Number(Number::from_f64(f).unwrap());
                        prop_assert_eq!(read(&v), expected(&v, MIN, MAX), "{:e}", f);
                    }
                }
            }
        }
    )*};
}
each_integer_type!(i8 i16 i32 i64 isize u8 u16 u32 u64 usize);

/// The numbers of the report, as clients write them.
#[test]
fn the_reported_numbers_are_refused() {
    for text in [
        "9223372036854775808.0",
        "9.223372036854775807e18",
        "9.223372036854775808e+18",
        "-9223372036854775809",
        "9223372036854775808",
    ] {
        assert!(i64::from_value(Some(&wire(text))).is_err(), "i64 {text}");
        assert!(
            isize::from_value(Some(&wire(text))).is_err(),
            "isize {text}"
        );
    }
    for text in [
        "18446744073709552000",
        "1.8446744073709552e19",
        "18446744073709551616",
    ] {
        assert!(u64::from_value(Some(&wire(text))).is_err(), "u64 {text}");
        assert!(
            usize::from_value(Some(&wire(text))).is_err(),
            "usize {text}"
        );
    }
    assert_eq!(i64::from_value(Some(&json!(3.0))), Ok(3));
    assert!(matches!(
        u8::from_value(Some(&json!(2.5))),
        Err(FieldProblem::WrongType { .. })
    ));
    assert!(matches!(
        i64::from_value(Some(&wire("-9223372036854775809"))),
        Err(FieldProblem::Inexact { .. })
    ));
}
