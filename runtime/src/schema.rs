//! JSON Schemas from Rust types: the one schemars generator every published schema comes from
//! (tools' `inputSchema` and `outputSchema`, prompts' arguments, a sampling answer's schema).
//!
//! It writes JSON Schema 2020-12 and keeps only the formats that standard defines. schemars marks
//! Rust numbers with formats of its own (`uint32`, `int64`, `double`, ...), which clients'
//! validators do not know (the official TypeScript SDK warns `unknown format "uint32" ignored in
//! schema` for each) or refuse. A number's format becomes the bounds it stands for, where the
//! schema does not already state them: every unsigned type is `minimum: 0`, and the types up to 64
//! bits get their range (schemars writes the 8- and 16-bit ranges itself, and a `#[schemars(range)]`
//! wins). `float`, `double`,
//! `int`, `int128` and `uint128` go without a replacement (a float's range is not a useful bound;
//! `isize`'s depends on the platform; 128-bit bounds are past what a JSON number carries
//! portably), as does any other format outside the standard (`ip` for `IpAddr`).

use schemars::generate::{SchemaGenerator, SchemaSettings};
use schemars::transform::{RecursiveTransform, RestrictFormats};
use schemars::{JsonSchema, Schema};
use serde::Deserialize;
use serde_json::Value;

use crate::protocol::JsonObject;

/// The root schema of `T` (JSON Schema 2020-12, with `$schema`, `title` and `$defs`), carrying only
/// standard formats.
pub(crate) fn root_schema_for<T: JsonSchema>() -> Schema {
    generator().into_root_schema_for::<T>()
}

/// The generator every schema comes from.
fn generator() -> SchemaGenerator {
    // `RestrictFormats` keeps the formats of the dialect the root's `$schema` names (2020-12 here:
    // schemars' list, Validation §7.3), in `$defs` and every subschema too.
    SchemaSettings::draft2020_12()
        .with_transform(RecursiveTransform(number_bounds))
        .with_transform(RestrictFormats::default())
        .into_generator()
}

/// The root schema a `JsonSchema::json_schema` function writes, as [`root_schema_for`] makes it
/// but without `$schema` and `title`, and not generic: the macros' input schemas come through
/// here, so building one is one copy of this code for every tool, not one of schemars' generic
/// root-schema code per tool (design §9, "Build cost"). For a schema that nothing in it refers
/// back to (a tool's arguments), the same schema: schemars' generic path also adds a `title`
/// and `$schema` (which an input schema leaves out) and marks the root's id so that a field of
/// the type itself becomes `"$ref": "#"`.
pub(crate) fn root_object_with(json_schema: &dyn Fn(&mut SchemaGenerator) -> Schema) -> JsonObject {
    let mut generator = generator();
    let mut schema = json_schema(&mut generator);
    let definitions = generator.take_definitions(false);
    if !definitions.is_empty() {
        // The draft 2020-12 settings' `definitions_path`, `#/$defs`.
        schema.insert("$defs".to_owned(), Value::Object(definitions));
    }
    for transform in generator.transforms_mut() {
        transform.transform(&mut schema);
    }
    match schema.to_value() {
        Value::Object(object) => object,
        _ => JsonObject::new(),
    }
}

/// The arguments of a `#[tool]` or `#[prompt]` whose one parameter is `#[args] T`: its schema is
/// this struct's (`T`'s fields flattened into the object, as the hidden arguments struct each
/// such tool used to derive had it). One derive here, generic over `T`, instead of one per
/// tool: the function generic over `T` is one copy per `#[args]` type (design §9, "Build
/// cost").
#[derive(JsonSchema)]
// Neither this doc comment nor the name is part of the schema.
#[schemars(title = "", description = "")]
#[allow(dead_code)] // read by schemars only
pub(crate) struct Flattened<T> {
    #[serde(flatten)]
    args: T,
}

/// One named argument of a `#[tool]` or `#[prompt]`, as the macros describe it: static data
/// and two functions, which are generic over the argument's type only (one copy per type in a
/// crate, however many tools take it).
#[derive(Clone, Copy)]
pub struct Property {
    /// The name on the wire.
    pub name: &'static str,
    /// `#[arg(description = ..)]`.
    pub description: Option<&'static str>,
    /// The schema of the argument's type: `SchemaGenerator::subschema_for::<T>`.
    pub schema: fn(&mut SchemaGenerator) -> Schema,
    /// Whether the argument may be left out: whether its parser accepts it absent (an
    /// `Option`).
    pub optional: fn() -> bool,
}

/// The schema of an object whose fields are `properties`: what `#[derive(JsonSchema)]` writes
/// for a struct of them (each field's schema with its description, `required` for the fields
/// that are not optional, in order), without a derive and its code per tool.
pub(crate) fn object_of(generator: &mut SchemaGenerator, properties: &[Property]) -> Schema {
    let mut object = JsonObject::new();
    object.insert("type".to_owned(), "object".into());
    let mut props = JsonObject::new();
    let mut required = Vec::new();
    for p in properties {
        let mut schema = (p.schema)(generator);
        if let Some(description) = p.description.filter(|d| !d.is_empty()) {
            schema.insert("description".to_owned(), description.into());
        }
        props.insert(p.name.to_owned(), schema.to_value());
        if !(generator.contract().is_deserialize() && (p.optional)()) {
            required.push(Value::from(p.name));
        }
    }
    object.insert("properties".to_owned(), Value::Object(props));
    if !required.is_empty() {
        object.insert("required".to_owned(), Value::Array(required));
    }
    Schema::from(object)
}

/// Adds the bounds a schemars number format stands for, where the schema does not state them.
/// The format itself is removed afterwards, with every other non-standard one.
fn number_bounds(schema: &mut Schema) {
    let Some(obj) = schema.as_object_mut() else {
        return;
    };
    let (min, max): (Value, Option<Value>) = match obj.get("format").and_then(Value::as_str) {
        Some("int8") => (i8::MIN.into(), Some(i8::MAX.into())),
        Some("int16") => (i16::MIN.into(), Some(i16::MAX.into())),
        Some("int32") => (i32::MIN.into(), Some(i32::MAX.into())),
        Some("int64") => (i64::MIN.into(), Some(i64::MAX.into())),
        Some("uint8") => (0.into(), Some(u8::MAX.into())),
        Some("uint16") => (0.into(), Some(u16::MAX.into())),
        Some("uint32") => (0.into(), Some(u32::MAX.into())),
        Some("uint64") => (0.into(), Some(u64::MAX.into())),
        Some("uint" | "uint128") => (0.into(), None),
        _ => return,
    };
    obj.entry("minimum").or_insert(min);
    if let Some(max) = max {
        obj.entry("maximum").or_insert(max);
    }
}

/// `#[tool]`, `#[prompt]`: [`Property::optional`] of an argument of type `T`,
/// `Optional::<T>::optional`: whether `__private::arg` accepts the argument absent. One function per
/// argument type, not per tool. When `T` is not `Deserialize` the inherent function's bound
/// fails and the path resolves to [`NotParsed`]'s instead (rustc passes over an inherent item
/// whose bounds fail for a trait's), so the one error is `arg::<T>`'s, at the user's type.
/// Here, beside [`Property`], so that the schema's tests use it as the macros do.
pub struct Optional<T>(std::marker::PhantomData<T>);

impl<T: for<'de> Deserialize<'de>> Optional<T> {
    /// Whether `T` reads an absent argument (an `Option` does).
    pub fn optional() -> bool {
        T::deserialize(Absent("")).is_ok()
    }
}

/// The stand-in for [`Optional::optional`] of a type that is not `Deserialize` (see there).
pub trait NotParsed {
    /// Never called: the code that names it has a type error already.
    fn optional() -> bool {
        false
    }
}

impl<T> NotParsed for Optional<T> {}

/// A missing argument: `None` for an `Option`, "missing field" for anything else.
pub(crate) struct Absent(pub(crate) &'static str);

impl<'de> serde::Deserializer<'de> for Absent {
    type Error = serde_json::Error;
    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::missing_field(self.0))
    }
    fn deserialize_option<V: serde::de::Visitor<'de>>(
        self,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_none()
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[allow(dead_code)]
    #[derive(JsonSchema)]
    struct Numbers {
        a: u8,
        b: u16,
        c: u32,
        d: u64,
        e: usize,
        f: u128,
        g: i8,
        h: i16,
        i: i32,
        j: i64,
        k: isize,
        l: f32,
        m: f64,
        n: Option<u32>,
        #[schemars(range(min = 1, max = 10))]
        o: u32,
        p: std::net::IpAddr,
        q: std::net::Ipv4Addr,
        #[schemars(extend("format" = "date-time"))]
        r: String,
        #[schemars(extend("format" = "phone"))]
        s: String,
    }

    #[test]
    fn number_formats_become_their_bounds_and_only_standard_formats_stay() {
        let schema = root_schema_for::<Numbers>().to_value();
        let props = &schema["properties"];
        let expect = json!({
            "a": {"type": "integer", "minimum": 0, "maximum": 255},
            "b": {"type": "integer", "minimum": 0, "maximum": 65535},
            "c": {"type": "integer", "minimum": 0, "maximum": 4294967295u64},
            "d": {"type": "integer", "minimum": 0, "maximum": u64::MAX},
            "e": {"type": "integer", "minimum": 0},
            "f": {"type": "integer", "minimum": 0},
            "g": {"type": "integer", "minimum": -128, "maximum": 127},
            "h": {"type": "integer", "minimum": -32768, "maximum": 32767},
            "i": {"type": "integer", "minimum": i32::MIN, "maximum": i32::MAX},
            "j": {"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX},
            "k": {"type": "integer"},
            "l": {"type": "number"},
            "m": {"type": "number"},
            "n": {"type": ["integer", "null"], "minimum": 0, "maximum": 4294967295u64},
            "o": {"type": "integer", "minimum": 1, "maximum": 10},
            "p": {"type": "string"},
            "q": {"type": "string", "format": "ipv4"},
            "r": {"type": "string", "format": "date-time"},
            "s": {"type": "string"},
        });
        assert_eq!(props, &expect);
    }

    #[test]
    fn formats_in_definitions_and_nested_schemas_go_too() {
        #[allow(dead_code)]
        #[derive(JsonSchema)]
        struct Inner {
            n: u32,
        }
        #[allow(dead_code)]
        #[derive(JsonSchema)]
        struct Outer {
            items: Vec<Inner>,
            by_name: std::collections::BTreeMap<String, i64>,
        }
        let schema = root_schema_for::<Outer>().to_value();
        let text = schema.to_string();
        assert!(!text.contains("\"format\""), "{schema:#}");
        assert_eq!(
            schema["$defs"]["Inner"]["properties"]["n"],
            json!({"type": "integer", "minimum": 0, "maximum": 4294967295u64})
        );
        assert_eq!(
            schema["properties"]["by_name"]["additionalProperties"],
            json!({"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX})
        );
    }

    /// A user type behind a `$ref`, with its own description.
    #[allow(dead_code)]
    #[derive(JsonSchema, serde::Deserialize)]
    struct Place {
        /// The city.
        city: String,
        zip: Option<u16>,
    }

    #[allow(dead_code)]
    #[derive(JsonSchema, serde::Deserialize)]
    enum Mode {
        Fast,
        Slow { by: u8 },
    }

    // What the macros' derived arguments struct was for these arguments (the form they still
    // derive with an `#[args]` parameter), field for field as `args_struct` writes them (and
    // without a doc comment, which it never has).
    #[allow(dead_code, non_camel_case_types)]
    #[derive(JsonSchema)]
    struct __RondoArgs_all {
        #[serde(rename = "cityName")]
        #[schemars(description = "Where")]
        city: String,
        #[serde(rename = "days")]
        days: Option<u32>,
        #[serde(rename = "empty")]
        #[schemars(description = "")]
        empty: bool,
        #[serde(rename = "place")]
        #[schemars(description = "The place")]
        place: Place,
        #[serde(rename = "places")]
        places: Vec<Place>,
        #[serde(rename = "maybe")]
        maybe: Option<Place>,
        #[serde(rename = "mode")]
        mode: Mode,
        #[serde(rename = "any")]
        any: Value,
        #[serde(rename = "unit")]
        unit: (),
        #[serde(rename = "count")]
        count: i64,
    }

    /// A property as the macros write it for an argument of type `T`.
    fn property<T: JsonSchema + for<'de> serde::Deserialize<'de>>(
        name: &'static str,
        description: Option<&'static str>,
    ) -> Property {
        Property {
            name,
            description,
            schema: SchemaGenerator::subschema_for::<T>,
            optional: Optional::<T>::optional,
        }
    }

    /// Named arguments described as static data (`object_of`) have exactly the schema the
    /// derived struct had: properties, descriptions, `required` and its order, `$defs`, the
    /// number bounds; so no tool's `inputSchema` changed when the derive went.
    #[test]
    fn named_arguments_have_the_schema_their_derived_struct_had() {
        let derived = root_object_with(&__RondoArgs_all::json_schema);
        let properties = [
            property::<String>("cityName", Some("Where")),
            property::<Option<u32>>("days", None),
            property::<bool>("empty", Some("")),
            property::<Place>("place", Some("The place")),
            property::<Vec<Place>>("places", None),
            property::<Option<Place>>("maybe", None),
            property::<Mode>("mode", None),
            property::<Value>("any", None),
            property::<()>("unit", None),
            property::<i64>("count", None),
        ];
        let described = root_object_with(&|g| object_of(g, &properties));
        assert_eq!(Value::Object(described), Value::Object(derived.clone()));
        // What it compares: a `$ref` with its description, and the optional fields left out of
        // `required`.
        assert_eq!(
            derived["properties"]["place"],
            json!({"$ref": "#/$defs/Place", "description": "The place"})
        );
        assert_eq!(
            derived["required"],
            json!([
                "cityName", "empty", "place", "places", "mode", "any", "unit", "count"
            ])
        );
        assert!(derived["$defs"]["Mode"].is_object(), "{derived:#?}");
    }

    // The hidden arguments struct of a tool whose one parameter is `#[args] T`, as
    // `args_struct` wrote it, for each kind of `T` the flattening treats apart.
    #[allow(dead_code, non_camel_case_types)]
    #[derive(JsonSchema)]
    struct __RondoArgs_place {
        #[serde(flatten)]
        args: Place,
    }
    #[allow(dead_code, non_camel_case_types)]
    #[derive(JsonSchema)]
    struct __RondoArgs_mode {
        #[serde(flatten)]
        args: Mode,
    }
    #[allow(dead_code, non_camel_case_types)]
    #[derive(JsonSchema)]
    struct __RondoArgs_maybe {
        #[serde(flatten)]
        args: Option<Place>,
    }
    #[allow(dead_code, non_camel_case_types)]
    #[derive(JsonSchema)]
    struct __RondoArgs_object {
        #[serde(flatten)]
        args: JsonObject,
    }
    #[allow(dead_code)]
    #[derive(JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Strict {
        a: u8,
    }
    #[allow(dead_code, non_camel_case_types)]
    #[derive(JsonSchema)]
    struct __RondoArgs_strict {
        #[serde(flatten)]
        args: Strict,
    }

    /// `Flattened<T>` has the schema each tool's own derived struct had.
    #[test]
    fn one_args_parameter_has_the_schema_its_derived_struct_had() {
        fn same<A: JsonSchema, B: JsonSchema>() {
            let (a, b) = (
                root_object_with(&A::json_schema),
                root_object_with(&B::json_schema),
            );
            assert_eq!(Value::Object(a), Value::Object(b));
        }
        same::<__RondoArgs_place, Flattened<Place>>();
        same::<__RondoArgs_mode, Flattened<Mode>>();
        same::<__RondoArgs_maybe, Flattened<Option<Place>>>();
        same::<__RondoArgs_object, Flattened<JsonObject>>();
        same::<__RondoArgs_strict, Flattened<Strict>>();
        // What it compares: the fields of the struct, flattened.
        let place = root_object_with(&Flattened::<Place>::json_schema);
        assert_eq!(place["required"], json!(["city"]), "{place:#?}");
    }
}
