//! Canonical JSON and digests, so that the identity of a question or of a call's arguments
//! never depends on map order (a dependency can switch `serde_json` to insertion order) or on
//! how a number happens to be spelled.

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
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push('{');
            for (i, (k, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                write(v, out);
            }
            out.push('}');
        }
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
        other => out.push_str(&other.to_string()),
    }
}

/// SHA-256 of the canonical form of `value`.
pub fn digest(value: &Value) -> [u8; 32] {
    Sha256::digest(to_canonical(value).as_bytes()).into()
}

/// The first 8 bytes of [`digest`] as 16 hex characters: a short, stable question fingerprint.
pub fn short_digest(value: &Value) -> String {
    digest(value)[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
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
    }
}
