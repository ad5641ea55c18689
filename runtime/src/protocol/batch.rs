//! JSON-RPC batches, which only revision 2025-03-26 has ("implementations MUST support
//! receiving batches"; 2025-06-18 removed them): an array of requests, notifications and
//! responses in one message, answered by one array of the responses to its requests.
//!
//! A batch is split into its entries' texts here, bounded in entries as its text is bounded in
//! bytes by the transport; each entry is then read as a message of its own
//! ([`Inbound::parse_str`](super::Inbound::parse_str)), so an entry that is no message (a
//! number, a nested array) gets its own `-32600`, as JSON-RPC 2.0 says.

use super::{Error, Message, Rejected};
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;

/// The most entries a batch may have; a longer one is refused whole with `-32600`.
pub const MAX_BATCH_ENTRIES: usize = 100;

/// Whether a message's text is an array (a batch), by its first character.
pub(crate) fn is_batch(text: &str) -> bool {
    text.trim_start().starts_with('[')
}

/// [`is_batch`] of a body's bytes.
#[cfg(feature = "http")]
pub(crate) fn is_batch_bytes(bytes: &[u8]) -> bool {
    bytes.trim_ascii_start().first() == Some(&b'[')
}

/// The entries of a batch, each as its text. `-32700` when the text is no JSON, `-32600` when
/// the array is empty or longer than [`MAX_BATCH_ENTRIES`] (read no further than that).
pub(crate) fn entries(text: &str) -> Result<Vec<&str>, Rejected> {
    let mut de = serde_json::Deserializer::from_str(text);
    let read = de
        .deserialize_seq(Entries)
        .and_then(|e| de.end().map(|()| e));
    match read {
        Ok(entries) if entries.is_empty() => Err(invalid("an empty batch")),
        Ok(entries) => Ok(entries.into_iter().map(RawValue::get).collect()),
        Err(e) if e.to_string().starts_with(TOO_MANY) => Err(invalid(&format!(
            "a batch of more than {MAX_BATCH_ENTRIES} messages"
        ))),
        Err(e) => Err(Rejected {
            id: None,
            error: Error::parse_error(e),
        }),
    }
}

/// The one message answering a batch's requests: their responses, in one array.
pub(crate) fn answer(responses: &[Message]) -> Message {
    let mut text = String::from("[");
    for (i, m) in responses.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(m.as_str());
    }
    text.push(']');
    Message::text(text)
}

fn invalid(reason: &str) -> Rejected {
    Rejected {
        id: None,
        error: Error::invalid_request(format!("{reason} (2025-03-26 batches)")),
    }
}

/// The start of the error a batch longer than the bound stops with.
const TOO_MANY: &str = "too many batch entries";

/// Reads the array's entries as text, stopping after [`MAX_BATCH_ENTRIES`].
struct Entries;

impl<'de> Visitor<'de> for Entries {
    type Value = Vec<&'de RawValue>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC batch (an array of messages)")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = seq.next_element::<&'de RawValue>()? {
            if entries.len() == MAX_BATCH_ENTRIES {
                return Err(de::Error::custom(TOO_MANY));
            }
            entries.push(entry);
        }
        Ok(entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn a_batch_splits_into_its_entries_texts() {
        let text = r#" [ {"jsonrpc":"2.0","id":1,"method":"ping"}, 3, [1] ] "#;
        assert!(is_batch(text) && !is_batch(r#"{"a":[1]}"#));
        assert_eq!(
            entries(text).unwrap(),
            [r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, "3", "[1]"]
        );
    }

    #[test]
    fn empty_oversized_and_malformed_batches_are_refused_whole() {
        let e = entries("[]").unwrap_err();
        assert_eq!((e.id, e.error.code), (None, -32600));
        let many = format!("[{}]", vec!["1"; MAX_BATCH_ENTRIES + 1].join(","));
        let e = entries(&many).unwrap_err();
        assert_eq!(e.error.code, -32600);
        assert!(
            format!("{:?}", e.error.data).contains("more than 100"),
            "{e:?}"
        );
        // 100,000 entries: refused after the 101st is read, never all of them kept.
        let huge = format!("[{}]", vec!["[1]"; 100_000].join(","));
        assert_eq!(entries(&huge).unwrap_err().error.code, -32600);
        let exactly = format!("[{}]", vec!["1"; MAX_BATCH_ENTRIES].join(","));
        assert_eq!(entries(&exactly).unwrap().len(), MAX_BATCH_ENTRIES);
        assert_eq!(entries("[1,").unwrap_err().error.code, -32700);
        assert_eq!(entries("[1] x").unwrap_err().error.code, -32700);
    }

    #[test]
    fn the_answer_is_one_array_of_the_responses() {
        let a = answer(&[
            Message::of(&json!({"jsonrpc": "2.0", "id": 1, "result": {}})),
            Message::of(&json!({"jsonrpc": "2.0", "id": 2, "result": {}})),
        ]);
        let v: Value = serde_json::from_str(a.as_str()).unwrap();
        assert_eq!(v.as_array().unwrap().len(), 2);
    }
}
