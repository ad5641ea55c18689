//! Canonical JSON and digests, so that the identity of a question or of a call's arguments
//! never depends on map order (a dependency can switch `serde_json` to insertion order) or on
//! how a number happens to be spelled.

use crate::protocol::JsonObject;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// Writes `value` as canonical JSON: object keys sorted by their UTF-8 bytes, no whitespace,
/// integral floats written as integers, other numbers in `serde_json`'s shortest form.
pub fn to_canonical(value: &Value) -> String {
    let mut out = String::new();
    write(value, &mut out);
    out
}

fn write(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => write_object(map, out),
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(v, out);
            }
            out.push(']');
        }
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 => {
                out.push_str(&(f as i64).to_string())
            }
            _ => out.push_str(&n.to_string()),
        },
        Value::String(s) => write_string(s, out),
        other => out.push_str(&other.to_string()),
    }
}

fn write_object(map: &JsonObject, out: &mut String) {
    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
    entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    out.push('{');
    for (i, (k, v)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(k, out);
        out.push(':');
        write(v, out);
    }
    out.push('}');
}

/// A JSON string as `serde_json` escapes it, written in place.
fn write_string(s: &str, out: &mut String) {
    let mut buf = std::mem::take(out).into_bytes();
    // Writing a `str` into a `Vec` cannot fail, and keeps the text UTF-8.
    let _ = serde_json::to_writer(&mut buf, s);
    *out = String::from_utf8(buf).unwrap_or_default();
}

/// SHA-256 of the canonical form of `value`.
pub fn digest(value: &Value) -> [u8; 32] {
    Sha256::digest(to_canonical(value).as_bytes()).into()
}

/// The first 8 bytes of [`digest`] as 16 hex characters: a short, stable question fingerprint.
pub fn short_digest(value: &Value) -> String {
    hex16(&digest(value))
}

/// [`short_digest`] of an object (a call's arguments), without wrapping it in a [`Value`].
pub fn short_digest_of(map: &JsonObject) -> String {
    let mut out = String::new();
    write_object(map, &mut out);
    hex16(&Sha256::digest(out.as_bytes()).into())
}

fn hex16(digest: &[u8; 32]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(16);
    for b in &digest[..8] {
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 15)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_order_and_number_spelling_do_not_matter() {
        let a: Value = serde_json::from_str(r#"{"b":1.0,"a":[{"y":2,"x":"é"}]}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{"a":[{"x":"é","y":2}],"b":1}"#).unwrap();
        assert_eq!(to_canonical(&a), r#"{"a":[{"x":"é","y":2}],"b":1}"#);
        assert_eq!(digest(&a), digest(&b));
        assert_ne!(digest(&json!({"a": 1})), digest(&json!({"a": 1.5})));
        let obj = a.as_object().expect("an object");
        assert_eq!(short_digest_of(obj), short_digest(&a));
        assert_eq!(short_digest(&json!("a\"\n")), short_digest(&json!("a\"\n")));
        assert_eq!(
            to_canonical(&json!({"k\"": "v\u{1}"})),
            r#"{"k\"":"v\u0001"}"#
        );
    }
}
