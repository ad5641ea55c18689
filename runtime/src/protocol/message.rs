//! An outbound JSON-RPC message, written to its JSON text once, when it is made (design §23):
//! the transports send that text as it is, and a result goes into it as the text its method
//! wrote, never through a `Value`.

use super::{Error, JsonObject, RequestId, notification_value, request_value};
use serde::Serialize;
use serde_json::Value;

/// A result written to JSON text by the method that made it.
pub(crate) type Written = String;

/// The room a result's text starts with: most results (a tool's text, a list of a few
/// items) fit, so the text is not grown and moved two or three times while it is written.
const RESULT_CAPACITY: usize = 256;

/// Writes a result to JSON text (`-32603` if it does not serialise).
pub(crate) fn write(result: &impl Serialize) -> Result<Written, Error> {
    let mut text = Vec::with_capacity(RESULT_CAPACITY);
    serde_json::to_writer(&mut text, result)
        .map_err(|e| Error::internal(format!("result does not serialise: {e}")))?;
    // serde_json writes UTF-8 only; the check is one pass over the bytes.
    String::from_utf8(text).map_err(|e| Error::internal(format!("result is not UTF-8: {e}")))
}

/// An error response message as a value; `id` is omitted when it could not be read.
pub(crate) fn error_response(id: Option<&RequestId>, error: &Error) -> Value {
    let mut m = JsonObject::new();
    m.insert("jsonrpc".into(), "2.0".into());
    if let Some(id) = id {
        m.insert("id".into(), serde_json::to_value(id).unwrap_or(Value::Null));
    }
    m.insert(
        "error".into(),
        serde_json::to_value(error).unwrap_or(Value::Null),
    );
    Value::Object(m)
}

/// Builds a notification message.
pub(crate) fn notification(method: &str, params: Value) -> Message {
    Message::of(&notification_value(method, params))
}

/// Builds a request message (2025-11-25 back-channel only).
pub(crate) fn request(id: &RequestId, method: &str, params: Option<Value>) -> Message {
    Message::of(&request_value(id, method, params))
}

/// One outbound JSON-RPC message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Message {
    text: String,
    /// The code of an error response (HTTP maps some to a status).
    error_code: Option<i64>,
}

impl Message {
    /// A message built as a value (a notification, a back-channel request).
    pub(crate) fn of(value: &Value) -> Message {
        Message {
            text: value.to_string(),
            error_code: None,
        }
    }

    /// A message whose JSON text is already written (a batch's answer).
    pub(crate) fn text(text: String) -> Message {
        Message {
            text,
            error_code: None,
        }
    }

    /// The success response to `id`, around the result its method wrote.
    pub(crate) fn response(id: &RequestId, result: &str) -> Message {
        const HEAD: &str = r#"{"jsonrpc":"2.0","id":"#;
        const RESULT: &str = r#","result":"#;
        let mut number = itoa::Buffer::new();
        let id: std::borrow::Cow<'_, str> = match id {
            RequestId::Number(n) => number.format(*n).into(),
            // A string serialises infallibly.
            RequestId::String(s) => serde_json::to_string(s).unwrap_or_default().into(),
        };
        // Exactly the room the text takes: it is never grown, and the HTTP body made from it
        // (`Bytes` from a `Vec` whose length is its capacity) needs no allocation of its own.
        let mut text =
            String::with_capacity(HEAD.len() + id.len() + RESULT.len() + result.len() + 1);
        text.push_str(HEAD);
        text.push_str(&id);
        text.push_str(RESULT);
        text.push_str(result);
        text.push('}');
        debug_assert_eq!(text.len(), text.capacity());
        Message {
            text,
            error_code: None,
        }
    }

    /// The error response to `id` (omitted when it could not be read).
    pub(crate) fn error(id: Option<&RequestId>, error: &Error) -> Message {
        Message {
            text: error_response(id, error).to_string(),
            error_code: Some(error.code),
        }
    }

    /// The JSON text.
    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    /// The JSON text, owned.
    #[cfg(any(feature = "http", feature = "fuzzing"))]
    pub(crate) fn into_string(self) -> String {
        self.text
    }

    /// The code of an error response.
    #[cfg(any(test, feature = "http"))]
    pub(crate) fn error_code(&self) -> Option<i64> {
        self.error_code
    }

    /// The message read back as a value (tests).
    #[cfg(test)]
    pub(crate) fn to_value(&self) -> Value {
        serde_json::from_str(&self.text).expect("a message is valid JSON")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_response_is_the_result_text_inside_the_frame() {
        let raw = write(&json!({"a": [1, "x"]})).expect("writes");
        for (id, want) in [
            (RequestId::Number(-7), json!(-7)),
            (RequestId::String("a\"b\n".into()), json!("a\"b\n")),
        ] {
            let msg = Message::response(&id, &raw);
            let v: Value = serde_json::from_str(msg.as_str()).expect("valid JSON");
            assert_eq!(
                v,
                json!({"jsonrpc": "2.0", "id": want, "result": {"a": [1, "x"]}})
            );
            assert_eq!(msg.error_code(), None);
        }
        let e = Message::error(None, &Error::invalid_params("no"));
        assert_eq!(e.error_code(), Some(-32602));
        let v: Value = serde_json::from_str(e.as_str()).expect("valid JSON");
        assert_eq!(v["error"]["message"], "no");
    }
}
