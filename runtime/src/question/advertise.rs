//! What a tool, prompt or resource may ask, advertised in its listing (`tools/list`,
//! `prompts/list`, `resources/list`, `resources/templates/list`; docs/design.md §4,
//! "Advertised"): each `asks = [..]` entry becomes one entry of the item's
//! `_meta["dev.rondo/asks"]`, in declaration order, so a host or a registry can tell up front
//! which client capabilities it can use and which it cannot do without. `FallbackKind`,
//! `AskMeta`, `Listing` and `with_asks` are the macros' (through `__private`);
//! [`ASKS_META_KEY`] and `AskKind` (in `protocol`, beside the input requests it names, so that
//! `cx/` and `observe/` below this module use it without reaching up) are public.

pub use crate::protocol::AskKind;
use crate::protocol::{JsonObject, Prompt, Resource, ResourceTemplate, Tool};
use serde_json::Value;

/// The `_meta` key of a tool's questions in `tools/list`: `dev.rondo/` is the reverse-DNS
/// vendor prefix the specification's `_meta` naming rules ask for (its second label is not
/// `modelcontextprotocol` or `mcp`, which are reserved).
pub const ASKS_META_KEY: &str = "dev.rondo/asks";

/// What a question does when the client cannot answer it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FallbackKind {
    /// `fallback = some_fn`: the function answers (it may still refuse at run time).
    Function,
    /// `fallback = args`: the answer comes from the tool's arguments.
    Args,
    /// `fallback = refuse`: the request ends with `-32021`; the capability is required.
    Refuse,
}

/// One advertised question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AskMeta {
    /// The question's key: its function's name, the key of its `inputRequests` entry.
    pub key: &'static str,
    /// What it asks.
    pub kind: AskKind,
    /// What it does without an answer.
    pub fallback: FallbackKind,
}

impl AskMeta {
    /// `{"key", "kind", "mode"?, "fallback", "required"}`.
    fn to_json(self) -> Value {
        let (kind, mode) = match self.kind {
            AskKind::Form => ("elicitation", Some("form")),
            AskKind::Url => ("elicitation", Some("url")),
            AskKind::Sampling => ("sampling", None),
            AskKind::Roots => ("roots", None),
        };
        let fallback = match self.fallback {
            FallbackKind::Function => "function",
            FallbackKind::Args => "args",
            FallbackKind::Refuse => "refuse",
        };
        let mut entry = JsonObject::new();
        entry.insert("key".into(), self.key.into());
        entry.insert("kind".into(), kind.into());
        if let Some(mode) = mode {
            entry.insert("mode".into(), mode.into());
        }
        entry.insert("fallback".into(), fallback.into());
        let required = self.fallback == FallbackKind::Refuse;
        entry.insert("required".into(), required.into());
        Value::Object(entry)
    }
}

/// A listed item with a `_meta`: a tool, a prompt, a resource or a resource template.
pub trait Listing {
    /// Its `_meta`.
    fn meta_mut(&mut self) -> &mut Option<JsonObject>;
}

macro_rules! listing {
    ($($item:ty),*) => {$(
        impl Listing for $item {
            fn meta_mut(&mut self) -> &mut Option<JsonObject> {
                &mut self.meta
            }
        }
    )*};
}

listing!(Tool, Prompt, Resource, ResourceTemplate);

/// `item` with its questions under [`ASKS_META_KEY`] in its `_meta`, in the order given; an
/// entry that is no question (`None`, already a compile error) is left out, and so is the key
/// when nothing remains.
pub fn with_asks<L: Listing>(mut item: L, asks: &[Option<AskMeta>]) -> L {
    let entries: Vec<Value> = asks.iter().flatten().map(|a| a.to_json()).collect();
    if entries.is_empty() {
        return item;
    }
    item.meta_mut()
        .get_or_insert_with(JsonObject::new)
        .insert(ASKS_META_KEY.to_owned(), Value::Array(entries));
    item
}

/// `item` without [`ASKS_META_KEY`] in its `_meta` (and without `_meta` when that was all).
pub(crate) fn without_asks<L: Listing + ?Sized>(item: &mut L) {
    let meta = item.meta_mut();
    if let Some(m) = meta {
        m.remove(ASKS_META_KEY);
        if m.is_empty() {
            *meta = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entries_keep_their_order_and_say_what_is_required() {
        let tool = Tool::new("t", "d", Tool::no_arguments());
        let asks = [
            Some(AskMeta {
                key: "confirm",
                kind: AskKind::Form,
                fallback: FallbackKind::Refuse,
            }),
            None,
            Some(AskMeta {
                key: "pick",
                kind: AskKind::Sampling,
                fallback: FallbackKind::Function,
            }),
        ];
        let mut tool = with_asks(tool, &asks);
        let meta = serde_json::to_value(&tool.meta).unwrap();
        assert_eq!(
            meta,
            json!({"dev.rondo/asks": [
                {"key": "confirm", "kind": "elicitation", "mode": "form", "fallback": "refuse", "required": true},
                {"key": "pick", "kind": "sampling", "fallback": "function", "required": false},
            ]})
        );
        without_asks(&mut tool);
        assert_eq!(tool.meta, None);
    }

    #[test]
    fn other_meta_stays() {
        let mut tool = Tool::new("t", "d", Tool::no_arguments());
        tool.meta = Some(JsonObject::from_iter([("com.example/x".into(), json!(1))]));
        let asks = [Some(AskMeta {
            key: "where",
            kind: AskKind::Roots,
            fallback: FallbackKind::Args,
        })];
        let mut tool = with_asks(tool, &asks);
        assert_eq!(tool.meta.as_ref().map(JsonObject::len), Some(2));
        without_asks(&mut tool);
        assert_eq!(
            tool.meta,
            Some(JsonObject::from_iter([("com.example/x".into(), json!(1))]))
        );
    }
}
