//! Duplicate keys in the JSON of an answer. serde_json's `Value` keeps the last of two equal
//! keys, so `{"action": "decline", "action": "accept"}` reads as an accept, while a proxy or a
//! log that keeps the first reads a decline: the same consent, read two ways. An answer's
//! keys must therefore be unique; this walks the raw text once more (only for messages that
//! carry answers) with serde_json's own tokenizer, keeping the keys of each object and
//! building nothing else.

use super::echo;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;

/// Where a duplicate key was found: the key, and the path of the object holding it.
#[derive(Debug, Default)]
struct Found {
    key: String,
    /// Innermost first.
    path: Vec<String>,
}

/// The first duplicate key in the whole message `bytes` (a response to the server's
/// question), described, if any.
pub(crate) fn in_message(bytes: &[u8]) -> Option<String> {
    check(bytes, &[])
}

/// The first duplicate key among the keys of the message `bytes`, of its `params`, and
/// anywhere inside `params.inputResponses` (a 2026-07-28 retry's answers), described, if any.
pub(crate) fn in_input_responses(bytes: &[u8]) -> Option<String> {
    check(bytes, &["params", "inputResponses"])
}

/// Checks every object along `path` for duplicate keys, and everything inside its end.
fn check(bytes: &[u8], path: &[&str]) -> Option<String> {
    let found = RefCell::new(None);
    let seed = Check {
        path,
        found: &found,
    };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    // Errors are a duplicate (recorded in `found`) or JSON that does not parse, which the
    // caller has already parsed and so cannot be here.
    let _ = seed.deserialize(&mut de);
    let found: Found = found.into_inner()?;
    let at: Vec<String> = found.path.into_iter().rev().collect();
    let place = if at.is_empty() {
        "the message".to_owned()
    } else {
        format!("`{}`", echo(at.join(".").replace(".[", "[")))
    };
    Some(format!(
        "{place} has the key `{}` twice: the keys of a JSON object in an answer must be unique",
        echo(&found.key)
    ))
}

/// One value to check: `path` is what is left of the path to check down (empty: everything).
#[derive(Clone, Copy)]
struct Check<'a> {
    path: &'a [&'a str],
    found: &'a RefCell<Option<Found>>,
}

impl Check<'_> {
    /// Records where the duplicate that a nested value found sits, on the way back up.
    fn within<E: de::Error>(self, segment: impl FnOnce() -> String, e: E) -> E {
        if let Some(found) = self.found.borrow_mut().as_mut() {
            found.path.push(segment());
        }
        e
    }
}

impl<'de> DeserializeSeed<'de> for Check<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Check<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                *self.found.borrow_mut() = Some(Found {
                    key,
                    path: Vec::new(),
                });
                return Err(de::Error::custom("duplicate key"));
            }
            let inner = match self.path.split_first() {
                None => Some(self),
                Some((first, rest)) if *first == key => Some(Check { path: rest, ..self }),
                Some(_) => None,
            };
            match inner {
                Some(check) => {
                    if let Err(e) = map.next_value_seed(check) {
                        return Err(self.within(|| key.clone(), e));
                    }
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            seen.insert(key);
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        // Only reached inside a checked value (a path leads through objects only).
        let mut i = 0usize;
        loop {
            match seq.next_element_seed(self) {
                Ok(Some(())) => i += 1,
                Ok(None) => return Ok(()),
                Err(e) => return Err(self.within(|| format!("[{i}]"), e)),
            }
        }
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_duplicates_where_answers_are() {
        let dup =
            br#"{"jsonrpc":"2.0","id":"rondo-1","result":{"action":"decline","action":"accept"}}"#;
        assert_eq!(
            in_message(dup).as_deref(),
            Some(
                "`result` has the key `action` twice: the keys of a JSON object in an answer \
                 must be unique"
            )
        );
        let deep = br#"{"result":{"content":{"list":[1,{"a":1,"a":2}]}}}"#;
        assert!(
            in_message(deep)
                .unwrap()
                .starts_with("`result.content.list[1]` has the key `a` twice")
        );
        let top = br#"{"id":1,"id":2}"#;
        assert!(
            in_message(top)
                .unwrap()
                .starts_with("the message has the key `id` twice")
        );
        let retry = br#"{"params":{"arguments":{"x":1,"x":2},"inputResponses":{"q":{"content":{"approve":false,"approve":true}}}}}"#;
        assert!(
            in_input_responses(retry)
                .unwrap()
                .starts_with("`params.inputResponses.q.content` has the key `approve` twice")
        );
        let keys = br#"{"params":{"inputResponses":{"q":{},"q":{}}}}"#;
        assert!(
            in_input_responses(keys)
                .unwrap()
                .starts_with("`params.inputResponses` has the key `q` twice")
        );
    }

    /// A client's keys are quoted only in part: a megabyte key full of control characters,
    /// repeated, and a path through another, give their first 100 characters and `…` (the
    /// path's count from `result.`).
    #[test]
    fn huge_keys_are_cut() {
        let nasty = "\u{1b}[2J\u{7}\r\n\0\t\u{8}";
        let huge = nasty.repeat(100_000);
        let key = serde_json::to_string(&huge).expect("serialises");
        let dup = format!(r#"{{"params":{{"inputResponses":{{{key}:1,{key}:2}}}}}}"#);
        assert_eq!(
            in_input_responses(dup.as_bytes()),
            Some(format!(
                "`params.inputResponses` has the key `{}…` twice: the keys of a JSON object in \
                 an answer must be unique",
                nasty.repeat(10)
            ))
        );
        let deep = format!(r#"{{"result":{{{key}:{{"a":1,"a":2}}}}}}"#);
        assert_eq!(
            in_message(deep.as_bytes()),
            Some(format!(
                "`result.{}{}…` has the key `a` twice: the keys of a JSON object in an answer \
                 must be unique",
                nasty.repeat(9),
                &nasty[..3]
            ))
        );
    }

    /// A malformed `error` object of a response is described with serde's error, which
    /// quotes the client's text: cut.
    #[test]
    fn a_malformed_error_object_is_cut() {
        use crate::protocol::Inbound;
        let huge = serde_json::to_string(&"\u{7}".repeat(100_000)).expect("serialises");
        let line = format!(r#"{{"jsonrpc":"2.0","id":"rondo-1","error":{{"code":{huge}}}}}"#);
        let Ok(Inbound::BadResponse { reason, .. }) = Inbound::parse(line.as_bytes()) else {
            panic!("a bad response");
        };
        // serde quotes the string as Rust does, `\u{7}` (5 characters) a bell, after
        // "invalid type: string \"" (22 characters): 15 bells and `\u{` fill the 100.
        assert_eq!(
            reason,
            format!(
                "malformed `error` object: invalid type: string \"{}\\u{{…",
                r"\u{7}".repeat(15)
            )
        );
    }

    #[test]
    fn leaves_everything_else_alone() {
        let args =
            br#"{"params":{"arguments":{"x":1,"x":2},"inputResponses":{"q":{"action":"accept"}}}}"#;
        assert_eq!(in_input_responses(args), None);
        let fine = br#"{"result":{"a":[{"b":1},{"b":2}],"c":"\"a\":1,\"a\":2"}}"#;
        assert_eq!(in_message(fine), None);
        // Keys written differently are the same key once decoded.
        let escaped = br#"{"result":{"action":"decline","\u0061ction":"accept"}}"#;
        assert!(in_message(escaped).is_some());
    }
}
