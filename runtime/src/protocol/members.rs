//! A JSON-RPC message read in one pass without a `Value` tree (design §23): the members of its
//! object and of its `params`, each value left as its own text (serde_json's `RawValue`,
//! borrowed from the message) until the reader wants it. The whole text is checked as JSON in
//! that pass; what is then built is only what the server reads (the `id`, the method, the
//! typed params).
//!
//! A key written twice is read where it was written last, as serde_json's `Value` reads it;
//! where that matters (answers), `unique` refuses the message.

use super::JsonObject;
use super::Method;
use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde_json::Value;
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
    /// `params` read straight into the members a target method takes, in the same pass, when
    /// `method` came before it and names `tools/call`, `prompts/get` or `resources/read` (what
    /// every client writes). Then `params` is `None`. It stands only when the message names
    /// the same method at its end and has an id ([`Envelope::target_stands`]); else the text is
    /// read again by [`Shape::parse_generic`].
    pub target: Option<Target<'a>>,
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
    /// Reads `text` as one JSON text (checked whole: its syntax, nothing after it), the
    /// `params` of a target method typed in the same pass (see [`Envelope::target`]).
    pub(crate) fn parse(text: &'a str) -> Result<Shape<Envelope<'a>>, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// [`Shape::parse`] with `params` always kept as members: for the message whose typed
    /// `params` do not stand.
    pub(crate) fn parse_generic(text: &'a str) -> Result<Shape<Envelope<'a>>, serde_json::Error> {
        let shape: Shape<Generic<'a>> = serde_json::from_str(text)?;
        Ok(match shape {
            Shape::Object(Generic(env)) => Shape::Object(env),
            Shape::Array => Shape::Array,
            Shape::Scalar => Shape::Scalar,
        })
    }
}

impl Envelope<'_> {
    /// Whether [`Envelope::target`] (if read) is what the message says: the method it was read
    /// for is the method the message names (a key written twice is read where it was written
    /// last) and the message is a request (a notification keeps every member of its `params`).
    pub(crate) fn target_stands(&self) -> bool {
        let Some(target) = &self.target else {
            return true;
        };
        self.method.map(RawValue::get) == Some(target.method_text.get())
            && self.id.is_some_and(|id| !is_null(id))
    }
}

/// The `params` of a target method, read for the method whose text is `method`.
#[derive(Debug)]
pub(crate) struct Target<'a> {
    /// The text of the `method` member the params were read for.
    pub method_text: &'a RawValue,
    /// That method.
    pub method: Method,
    /// The params.
    pub params: Shape<TargetMembers<'a>>,
}

/// The members of a target method's `params` that its request reads, each built as it is read;
/// any other member is checked and skipped.
#[derive(Debug, Default)]
pub(crate) struct TargetMembers<'a> {
    /// `_meta`, as its text.
    pub meta: Option<&'a RawValue>,
    /// `name` (`uri` for `resources/read`).
    pub target: Option<Value>,
    /// `arguments` (skipped for `resources/read`).
    pub arguments: Option<Value>,
    /// `inputResponses`.
    pub input_responses: Option<Value>,
    /// `requestState`.
    pub request_state: Option<Value>,
}

impl<'a> TargetMembers<'a> {
    /// The members a target method's request reads, taken from `params` read as members (the
    /// last of a repeated key), each built from its text (`arguments` not at all for
    /// `resources/read`). An error is a member's text no `Value` holds.
    pub(crate) fn of(method: &Method, params: &Members<'a>) -> Result<Self, serde_json::Error> {
        let read = |key| params.get(key).map(read::<Value>).transpose();
        Ok(TargetMembers {
            meta: params.get("_meta"),
            target: read(method.target_param().unwrap_or("name"))?,
            arguments: match method {
                Method::ResourcesRead => None,
                _ => read("arguments")?,
            },
            input_responses: read("inputResponses")?,
            request_state: read("requestState")?,
        })
    }
}

/// Reads a target method's `params`: `key` names its target, `arguments` whether it takes them.
#[derive(Clone, Copy)]
struct TargetSeed {
    key: &'static str,
    arguments: bool,
}

impl TargetSeed {
    /// The method whose text is `method` and the seed for its params, if it is a target method.
    fn of(method: &RawValue) -> Option<(Method, TargetSeed)> {
        let method = Method::parse(&string(method)?);
        let seed = TargetSeed {
            key: method.target_param()?,
            arguments: method != Method::ResourcesRead,
        };
        Some((method, seed))
    }
}

impl<'de> MembersSeed<'de> for TargetSeed {
    type Out = TargetMembers<'de>;
    fn read_members<A: MapAccess<'de>>(self, mut map: A) -> Result<TargetMembers<'de>, A::Error> {
        let mut t = TargetMembers::default();
        // A repeated key is read where it was written last, as a `Value` reads it.
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            match &*key {
                "_meta" => t.meta = Some(map.next_value()?),
                k if k == self.key => t.target = Some(map.next_value()?),
                "arguments" if self.arguments => t.arguments = Some(map.next_value()?),
                "inputResponses" => t.input_responses = Some(map.next_value()?),
                "requestState" => t.request_state = Some(map.next_value()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(t)
    }
}

impl<'de> DeserializeSeed<'de> for TargetSeed {
    type Value = Shape<TargetMembers<'de>>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(ShapeVisitor(self))
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

/// A reader of an object's members that carries what it needs to know (a [`FromMembers`]
/// type needs nothing: its seed is `PhantomData`).
trait MembersSeed<'de> {
    type Out;
    fn read_members<A: MapAccess<'de>>(self, map: A) -> Result<Self::Out, A::Error>;
}

impl<'de, T: FromMembers<'de>> MembersSeed<'de> for PhantomData<T> {
    type Out = T;
    fn read_members<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::from_members(map)
    }
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

/// An [`Envelope`] whose `params` are always read as members.
struct Generic<'a>(Envelope<'a>);

impl<'de> FromMembers<'de> for Generic<'de> {
    fn from_members<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        Envelope::read(map, false).map(Generic)
    }
}

impl<'de> FromMembers<'de> for Envelope<'de> {
    fn from_members<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        Envelope::read(map, true)
    }
}

impl<'de> Envelope<'de> {
    /// The members of a message; `typed`: a target method's `params` read typed (see
    /// [`Envelope::target`]).
    fn read<A: MapAccess<'de>>(mut map: A, typed: bool) -> Result<Self, A::Error> {
        let mut env = Envelope::default();
        // A repeated key is read where it was written last, as a `Value` reads it.
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            match &*key {
                "jsonrpc" => env.jsonrpc = Some(map.next_value()?),
                "id" => env.id = Some(map.next_value()?),
                "method" => env.method = Some(map.next_value()?),
                "params" => {
                    let seed = env.method.filter(|_| typed).and_then(|text| {
                        TargetSeed::of(text).map(|(method, seed)| (text, method, seed))
                    });
                    match seed {
                        Some((method_text, method, seed)) => {
                            let params = map.next_value_seed(seed)?;
                            env.target = Some(Target {
                                method_text,
                                method,
                                params,
                            });
                            env.params = None;
                        }
                        None => {
                            env.params = Some(map.next_value()?);
                            env.target = None;
                        }
                    }
                }
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
        d.deserialize_any(ShapeVisitor(PhantomData::<T>))
    }
}

/// Reads what a JSON value is, an object's members with the seed `S`.
struct ShapeVisitor<S>(S);

impl<'de, S: MembersSeed<'de>> Visitor<'de> for ShapeVisitor<S> {
    type Value = Shape<S::Out>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.0.read_members(map).map(Shape::Object)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        // Each element is still checked, so a malformed array is a parse error.
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Shape::Array)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Shape::Scalar)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Shape::Scalar)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Shape::Scalar)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Shape::Scalar)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Shape::Scalar)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Shape::Scalar)
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
