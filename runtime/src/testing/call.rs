//! The end of a call that may have taken several rounds, and the `_meta` the client adds.

use crate::protocol::JsonObject;
use serde_json::{Value, json};

/// The end of a call that may have taken several rounds.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The last result: complete, or `input_required` when the client gave up.
    pub result: Value,
    /// How many requests the call took (1 when no input was asked).
    pub rounds: u32,
}

impl Call {
    /// The concatenated text of the result's text content blocks.
    pub fn text(&self) -> String {
        let blocks = self
            .result
            .get("content")
            .or_else(|| self.result.get("messages"));
        let mut out = String::new();
        for b in blocks.and_then(Value::as_array).into_iter().flatten() {
            let b = b.get("content").unwrap_or(b);
            if let Some(t) = b.get("text").and_then(Value::as_str) {
                out.push_str(t);
            }
        }
        out
    }
    /// `isError` of a tool result.
    pub fn is_error(&self) -> bool {
        self.result
            .get("isError")
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }
    /// Whether the call ended still waiting for input.
    pub fn input_required(&self) -> bool {
        self.result.get("resultType").and_then(Value::as_str) == Some("input_required")
    }
}

/// The params of `tools/call` and `prompts/get`.
pub(super) fn named(name: &str, arguments: Value) -> Value {
    json!({ "name": name, "arguments": arguments })
}

/// `params` with `add`'s keys put into its `_meta` (keys already present win).
pub(super) fn with_meta(params: Value, add: Value) -> Value {
    let mut p = match params {
        Value::Object(m) => m,
        _ => JsonObject::new(),
    };
    let meta = p.entry("_meta").or_insert_with(|| json!({}));
    if let (Some(m), Value::Object(add)) = (meta.as_object_mut(), add) {
        for (k, v) in add {
            m.entry(k).or_insert(v);
        }
    }
    Value::Object(p)
}
