//! A 2026-07-28 result with its envelope, written in one pass (design §23): the method's own
//! result is serialised straight to JSON text with `resultType`, the cache hints and the
//! envelope's `_meta` keys added, never built as a `Value` first and merged.
//!
//! The envelope's members win over the result's own members of the same name; when the result
//! has its own `_meta`, the envelope's keys are added where it does not already have them (only
//! then is that one member built as a `Value`, to merge it).

use super::CompleteEnvelope;
use serde::ser::{self, Impossible, Serialize, SerializeMap, SerializeStruct, Serializer};
use serde_json::Value;

/// `result` with `envelope` merged in, as one object.
pub(crate) struct Enveloped<'a, T: ?Sized> {
    /// The method's own result.
    pub result: &'a T,
    /// What every complete result carries.
    pub envelope: &'a CompleteEnvelope<'a>,
}

impl<T: Serialize + ?Sized> Serialize for Enveloped<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.result.serialize(Outer {
            inner: s,
            envelope: self.envelope,
        })
    }
}

/// The envelope's own members; a result member of one of these names is left out.
const SET_BY_ENVELOPE: [&str; 3] = ["resultType", "ttlMs", "cacheScope"];

/// Serialises a result that is an object with the envelope merged in; a result that is not an
/// object goes out as it is.
struct Outer<'a, S> {
    inner: S,
    envelope: &'a CompleteEnvelope<'a>,
}

/// The members of the result object, followed by the envelope's.
struct Members<'a, M> {
    map: M,
    envelope: &'a CompleteEnvelope<'a>,
    own_meta: bool,
    /// The key of a map entry whose value comes next (`None`: skip it).
    key: Option<Option<String>>,
}

impl<'a, M: SerializeMap> Members<'a, M> {
    fn entry<V: Serialize + ?Sized>(&mut self, key: &str, value: &V) -> Result<(), M::Error> {
        if SET_BY_ENVELOPE.contains(&key) {
            return Ok(());
        }
        if key == "_meta" {
            self.own_meta = true;
            let merged = merge_meta(value, self.envelope).map_err(ser::Error::custom)?;
            return self.map.serialize_entry(key, &merged);
        }
        self.map.serialize_entry(key, value)
    }

    fn finish(mut self) -> Result<M::Ok, M::Error> {
        self.envelope.write_members(&mut self.map, !self.own_meta)?;
        self.map.end()
    }
}

/// The result's own `_meta` with the envelope's keys added where it lacks them.
fn merge_meta<V: Serialize + ?Sized>(
    own: &V,
    envelope: &CompleteEnvelope<'_>,
) -> serde_json::Result<Value> {
    let mut own = serde_json::to_value(own)?;
    if let (Value::Object(own), Value::Object(added)) =
        (&mut own, serde_json::to_value(envelope.meta())?)
    {
        for (k, v) in added {
            own.entry(k).or_insert(v);
        }
    }
    Ok(own)
}

impl<M: SerializeMap> SerializeStruct for Members<'_, M> {
    type Ok = M::Ok;
    type Error = M::Error;
    fn serialize_field<V: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<(), M::Error> {
        self.entry(key, value)
    }
    fn end(self) -> Result<M::Ok, M::Error> {
        self.finish()
    }
}

impl<M: SerializeMap> SerializeMap for Members<'_, M> {
    type Ok = M::Ok;
    type Error = M::Error;
    fn serialize_key<K: Serialize + ?Sized>(&mut self, key: &K) -> Result<(), M::Error> {
        self.key = Some(key.serialize(KeyName).ok());
        Ok(())
    }
    fn serialize_value<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<(), M::Error> {
        match self.key.take() {
            Some(Some(key)) => self.entry(&key, value),
            _ => Err(ser::Error::custom("a result object's keys must be strings")),
        }
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), M::Error> {
        match key.serialize(KeyName) {
            Ok(key) => self.entry(&key, value),
            Err(_) => Err(ser::Error::custom("a result object's keys must be strings")),
        }
    }
    fn end(self) -> Result<M::Ok, M::Error> {
        self.finish()
    }
}

/// Reads a map key that is a string.
struct KeyName;

/// Why a key is not a string.
#[derive(Debug)]
struct NotAString;

impl std::fmt::Display for NotAString {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not a string")
    }
}
impl std::error::Error for NotAString {}
impl ser::Error for NotAString {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        NotAString
    }
}

macro_rules! not_a_string {
    ($($method:ident($($ty:ty),*)),* $(,)?) => {
        $(fn $method(self, $(_: $ty),*) -> Result<String, NotAString> { Err(NotAString) })*
    };
}

impl Serializer for KeyName {
    type Ok = String;
    type Error = NotAString;
    type SerializeSeq = Impossible<String, NotAString>;
    type SerializeTuple = Impossible<String, NotAString>;
    type SerializeTupleStruct = Impossible<String, NotAString>;
    type SerializeTupleVariant = Impossible<String, NotAString>;
    type SerializeMap = Impossible<String, NotAString>;
    type SerializeStruct = Impossible<String, NotAString>;
    type SerializeStructVariant = Impossible<String, NotAString>;
    fn serialize_str(self, v: &str) -> Result<String, NotAString> {
        Ok(v.to_owned())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<String, NotAString> {
        Ok(variant.to_owned())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<String, NotAString> {
        value.serialize(self)
    }
    not_a_string!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
    );
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<String, NotAString> {
        Err(NotAString)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, NotAString> {
        Err(NotAString)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, NotAString> {
        Err(NotAString)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, NotAString> {
        Err(NotAString)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, NotAString> {
        Err(NotAString)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, NotAString> {
        Err(NotAString)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, NotAString> {
        Err(NotAString)
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, NotAString> {
        Err(NotAString)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, NotAString> {
        Err(NotAString)
    }
}

/// Forwards a serialisation that is not an object to the real serializer.
macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*)),* $(,)?) => {
        $(fn $method(self, $($arg: $ty),*) -> Result<S::Ok, S::Error> {
            self.inner.$method($($arg),*)
        })*
    };
}

impl<'a, S: Serializer> Serializer for Outer<'a, S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = S::SerializeSeq;
    type SerializeTuple = S::SerializeTuple;
    type SerializeTupleStruct = S::SerializeTupleStruct;
    type SerializeTupleVariant = S::SerializeTupleVariant;
    type SerializeMap = Members<'a, S::SerializeMap>;
    type SerializeStruct = Members<'a, S::SerializeMap>;
    type SerializeStructVariant = S::SerializeStructVariant;

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        Ok(Members {
            map: self.inner.serialize_map(None)?,
            envelope: self.envelope,
            own_meta: false,
            key: None,
        })
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        self.serialize_map(None)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }
    forward!(
        serialize_bool(v: bool),
        serialize_i8(v: i8),
        serialize_i16(v: i16),
        serialize_i32(v: i32),
        serialize_i64(v: i64),
        serialize_u8(v: u8),
        serialize_u16(v: u16),
        serialize_u32(v: u32),
        serialize_u64(v: u64),
        serialize_f32(v: f32),
        serialize_f64(v: f64),
        serialize_char(v: char),
        serialize_str(v: &str),
        serialize_bytes(v: &[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(name: &'static str),
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str),
    );
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.inner
            .serialize_newtype_variant(name, index, variant, value)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        self.inner.serialize_seq(len)
    }
    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.inner.serialize_tuple(len)
    }
    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.inner.serialize_tuple_struct(name, len)
    }
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        self.inner
            .serialize_tuple_variant(name, index, variant, len)
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.inner
            .serialize_struct_variant(name, index, variant, len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{CacheHint, Implementation, info_text};
    use serde_json::json;

    fn written(result: &impl Serialize, cache: Option<CacheHint>) -> Value {
        let info = info_text(&Implementation::new("s", "1"));
        let env = CompleteEnvelope::new(&info, cache);
        let text = serde_json::to_string(&Enveloped {
            result,
            envelope: &env,
        })
        .expect("serialises");
        serde_json::from_str(&text).expect("one JSON object")
    }

    #[test]
    fn one_pass_writes_what_a_merge_would() {
        let info = info_text(&Implementation::new("s", "1"));
        for (result, cache) in [
            (json!({"content": []}), None),
            (json!({"tools": [{"name": "t"}]}), Some(CacheHint::ANSWERED)),
            (json!({"x": 1, "_meta": {"own": true}}), None),
            (
                json!({"resultType": "mine", "ttlMs": 5, "_meta": {"io.modelcontextprotocol/serverInfo": 1}}),
                Some(CacheHint::ANSWERED),
            ),
            (json!([1, 2]), None),
            (json!("text"), None),
        ] {
            let merged = CompleteEnvelope::new(&info, cache)
                .wrap(result.clone())
                .expect("merges");
            assert_eq!(written(&result, cache), merged, "{result}");
        }
    }
}
