//! Canonical JSON and digests, so that the identity of a question or of a call's arguments
//! never depends on map order (a dependency can switch `serde_json` to insertion order) or on
//! how a number happens to be spelled.

use crate::protocol::JsonObject;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// Writes `value` as canonical JSON: object keys sorted by their UTF-8 bytes, no whitespace,
/// integral floats written as integers, other numbers in `serde_json`'s shortest form.
pub fn to_canonical(value: &Value) -> String {
    let mut out = Vec::new();
    write(value, &mut out);
    into_text(out)
}

/// The bytes written, as text: every piece written is UTF-8 (JSON punctuation, `serde_json`'s
/// strings and numbers), so this never fails; it is checked once, at the end.
fn into_text(out: Vec<u8>) -> String {
    String::from_utf8(out).unwrap_or_default()
}

fn write(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Object(map) => write_object(map, out),
        Value::Array(items) => {
            out.push(b'[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write(v, out);
            }
            out.push(b']');
        }
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 => {
                out.extend_from_slice((f as i64).to_string().as_bytes())
            }
            _ => out.extend_from_slice(n.to_string().as_bytes()),
        },
        Value::String(s) => write_string(s, out),
        other => out.extend_from_slice(other.to_string().as_bytes()),
    }
}

fn write_object(map: &JsonObject, out: &mut Vec<u8>) {
    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
    entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    out.push(b'{');
    for (i, (k, v)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_string(k, out);
        out.push(b':');
        write(v, out);
    }
    out.push(b'}');
}

/// A JSON string as `serde_json` escapes it.
fn write_string(s: &str, out: &mut Vec<u8>) {
    // Writing a `str` into a `Vec` cannot fail.
    let _ = serde_json::to_writer(&mut *out, s);
}

/// SHA-256 of the canonical form of `value`.
pub fn digest(value: &Value) -> [u8; 32] {
    let mut out = Vec::new();
    write(value, &mut out);
    Sha256::digest(&out).into()
}

/// The first 8 bytes of [`digest`] as 16 hex characters: a short, stable question fingerprint.
pub fn short_digest(value: &Value) -> String {
    hex16(&digest(value))
}

/// [`short_digest`] of an object (a call's arguments), without wrapping it in a [`Value`].
pub fn short_digest_of(map: &JsonObject) -> String {
    let mut out = Vec::new();
    write_object(map, &mut out);
    hex16(&Sha256::digest(&out).into())
}

fn hex16(digest: &[u8; 32]) -> String {
    hex(&digest[..8])
}

/// `bytes` as lowercase hex digits (ids, digests, principal keys).
pub(crate) fn hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(2 * bytes.len());
    for b in bytes {
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
