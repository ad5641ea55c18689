//! A JSON-RPC message read in one pass without a `Value` tree (design §23): the members of its
//! object and of its `params`, each value left as its own text (serde_json's `RawValue`,
//! borrowed from the message) until the reader wants it. The whole text is checked as JSON in
//! that pass; what is then built is only what the server reads (the `id`, the method, the
//! typed params).
//!
//! A key written twice is read where it was written last, as serde_json's `Value` reads it;
//! where that matters (answers), `unique` refuses the message.

use super::JsonObject;
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// The members of one object, in the order written.
#[derive(Debug, Default)]
pub(crate) struct Members<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'a> Members<'a> {
    /// The text of member `key` (its last occurrence), if written.
    pub(crate) fn get(&self, key: &str) -> Option<&'a RawValue> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v)
    }

    /// The object built whole, each member's value from its text; a repeated key keeps its
    /// last value. An error is a member's text that no `Value` holds.
    pub(crate) fn into_object(self) -> Result<JsonObject, serde_json::Error> {
        let mut obj = JsonObject::new();
        for (key, raw) in self.0 {
            obj.insert(key.into_owned(), read(raw)?);
        }
        Ok(obj)
    }
}

/// The members a JSON-RPC message's object may have that the server reads, each left as its
/// text but `params`, whose own members are read in the same pass. Any other member is
/// checked and skipped.
#[derive(Debug, Default)]
pub(crate) struct Envelope<'a> {
    /// `jsonrpc`.
    pub jsonrpc: Option<&'a RawValue>,
    /// `id`.
    pub id: Option<&'a RawValue>,
    /// `method`.
    pub method: Option<&'a RawValue>,
    /// `params`: its members when it is an object.
    pub params: Option<Shape<Members<'a>>>,
    /// `result`.
    pub result: Option<&'a RawValue>,
    /// `error`.
    pub error: Option<&'a RawValue>,
}

/// What a JSON value is: an object (read into `T`), an array, or any other value.
#[derive(Debug)]
pub(crate) enum Shape<T> {
    /// An object.
    Object(T),
    /// An array.
    Array,
    /// A string, a number, a boolean or `null`.
    Scalar,
}

impl<'a> Shape<Envelope<'a>> {
    /// Reads `text` as one JSON text (checked whole: its syntax, nothing after it).
    pub(crate) fn parse(text: &'a str) -> Result<Shape<Envelope<'a>>, serde_json::Error> {
        serde_json::from_str(text)
    }
}

/// Whether `raw` is `null`.
pub(crate) fn is_null(raw: &RawValue) -> bool {
    raw.get() == "null"
}

/// The string `raw` holds, borrowed when it has no escapes; `None` when it is no string.
pub(crate) fn string(raw: &RawValue) -> Option<Cow<'_, str>> {
    let text = raw.get();
    if !text.starts_with('"') {
        return None;
    }
    if let Ok(s) = serde_json::from_str::<&str>(text) {
        return Some(Cow::Borrowed(s));
    }
    serde_json::from_str::<String>(text).ok().map(Cow::Owned)
}

/// Reads `raw` as a `T` (a `Value`, a `JsonObject`, a typed struct).
pub(crate) fn read<'a, T: Deserialize<'a>>(raw: &'a RawValue) -> Result<T, serde_json::Error> {
    serde_json::from_str(raw.get())
}

/// A key, borrowed from the message when it has no escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s.to_owned())))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// What is read from the members of an object, one by one.
trait FromMembers<'de>: Sized {
    fn from_members<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

impl<'de> FromMembers<'de> for Members<'de> {
    fn from_members<A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut members = Vec::with_capacity(map.size_hint().unwrap_or(4));
        while let Some((Key(key), value)) = map.next_entry::<Key<'de>, &'de RawValue>()? {
            members.push((key, value));
        }
        Ok(Members(members))
    }
}

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct MembersVisitor;
        impl<'de> Visitor<'de> for MembersVisitor {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Members<'de>, A::Error> {
                Members::from_members(map)
            }
        }
        d.deserialize_map(MembersVisitor)
    }
}

impl<'de> FromMembers<'de> for Envelope<'de> {
    fn from_members<A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut env = Envelope::default();
        // A repeated key is read where it was written last, as a `Value` reads it.
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            match &*key {
                "jsonrpc" => env.jsonrpc = Some(map.next_value()?),
                "id" => env.id = Some(map.next_value()?),
                "method" => env.method = Some(map.next_value()?),
                "params" => env.params = Some(map.next_value()?),
                "result" => env.result = Some(map.next_value()?),
                "error" => env.error = Some(map.next_value()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(env)
    }
}

impl<'de, T: FromMembers<'de>> Deserialize<'de> for Shape<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ShapeVisitor<T>(PhantomData<T>);
        impl<'de, T: FromMembers<'de>> Visitor<'de> for ShapeVisitor<T> {
            type Value = Shape<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Shape<T>, A::Error> {
                T::from_members(map).map(Shape::Object)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Shape<T>, A::Error> {
                // Each element is still checked, so a malformed array is a parse error.
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Shape::Array)
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Shape<T>, E> {
                Ok(Shape::Scalar)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Shape<T>, E> {
                Ok(Shape::Scalar)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Shape<T>, E> {
                Ok(Shape::Scalar)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Shape<T>, E> {
                Ok(Shape::Scalar)
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Shape<T>, E> {
                Ok(Shape::Scalar)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Shape<T>, E> {
                Ok(Shape::Scalar)
            }
        }
        d.deserialize_any(ShapeVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(text: &str) -> Members<'_> {
        let Ok(Shape::Object(env)) = Shape::parse(text) else {
            panic!("an object: {text}");
        };
        match env.params {
            Some(Shape::Object(m)) => m,
            other => panic!("params: {other:?}"),
        }
    }

    #[test]
    fn members_keep_their_text_and_the_last_of_a_repeated_key() {
        let m = params(r#"{"params":{"a": [1, 2] , "b":"x","a":{"c":null}}}"#);
        assert_eq!(m.get("a").map(RawValue::get), Some(r#"{"c":null}"#));
        assert_eq!(m.get("b").and_then(string).as_deref(), Some("x"));
        assert!(m.get("c").is_none());
        let obj = m.into_object().expect("builds");
        assert_eq!(obj.len(), 2);
        assert_eq!(obj["a"], serde_json::json!({"c": null}));
    }

    #[test]
    fn escaped_keys_and_strings_are_read_unescaped() {
        let text = r#"{"\u0069d":"a\"b","method":"\u00e9","i\u0064":"last","params":{"\u006e":1}}"#;
        let Ok(Shape::Object(env)) = Shape::parse(text) else {
            panic!("an object");
        };
        assert_eq!(env.id.and_then(string).as_deref(), Some("last"));
        assert_eq!(env.method.and_then(string).as_deref(), Some("é"));
        let Some(Shape::Object(p)) = env.params else {
            panic!("params");
        };
        assert_eq!(p.get("n").map(RawValue::get), Some("1"));
    }

    #[test]
    fn the_shape_of_anything_else_and_bad_json_is_an_error() {
        assert!(matches!(Shape::parse("[1, {}]"), Ok(Shape::Array)));
        for scalar in ["1", "\"s\"", "true", "null", "-1.5"] {
            assert!(matches!(Shape::parse(scalar), Ok(Shape::Scalar)));
        }
        for (text, shape) in [("[]", "Array"), ("null", "Scalar"), ("\"{}\"", "Scalar")] {
            let message = format!(r#"{{"params":{text}}}"#);
            let Ok(Shape::Object(env)) = Shape::parse(&message) else {
                panic!("an object");
            };
            assert_eq!(format!("{:?}", env.params.expect("read")), shape);
        }
        for bad in [
            "{",
            "{\"a\":}",
            "[1,]",
            "{\"a\":1} x",
            "{\"params\":{\"a\":\"\\q\"}}",
            "{\"x\":[1,}",
            "",
        ] {
            assert!(Shape::parse(bad).is_err(), "{bad:?}");
        }
    }
}
