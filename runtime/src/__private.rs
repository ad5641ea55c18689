//! Items the macros' expansions reference. Not a public API: no semver guarantees; the macros
//! crate is pinned with `=x.y.z` so both always match. Each item names the macro that uses it.

pub use schemars; // #[tool], #[prompt]: derive(JsonSchema) on the arguments struct
pub use serde_json; // all
pub use std::collections::BTreeMap; // #[resource]

pub use crate::cx::Cx; // all
pub use crate::identity::Scope; // #[tool], #[prompt], #[resource], #[toolbox]: scopes = [..]
pub use crate::prompts::{IntoPromptResult, PromptHandler, PromptSet}; // #[prompt], prompts![]
pub use crate::protocol::Revision; // #[derive(Elicit)]
pub use crate::protocol::{
    CallToolResult, Error, GetPromptResult, JsonObject, Prompt, ReadResourceResult, Tool,
}; // all
pub use crate::question::advertise::{AskKind, AskMeta, FallbackKind, Listing, with_asks}; // #[elicit], asks = [..]
pub use crate::question::form::check::Bound; // #[derive(Elicit)]
pub use crate::question::form::spec::{FieldSpec, FormReader, FormSchema}; // #[derive(Elicit)]
pub use crate::question::form::{
    Elicit, ElicitEnum, EnumOption, FieldKind, FieldProblem, FormError, FormField, StringFormat,
    enum_from_value, enum_schema, enum_to_value,
}; // #[derive(Elicit)]
pub use crate::question::private::{
    AsksOf, FallbackCall, FallbackValue, FormArgs, FormQuestion, Listed, Mode, NotAForm, NotListed,
    NotRendered, QuestionInput, RebindCx, RebindOther, RebindRef, RebindRefOther, RootsQuestion,
    SampleQuestion, UrlQuestion, ViaFuture, ViaValue, argument_collision, input, is_roots,
    is_sample, refuse, rendered, with_question_arguments,
}; // #[elicit], #[sample], #[roots], asks = [..]
pub use crate::question::{AnswerOf, Ask, Asked, Declared, Fallback, QuestionDecl, Rendered}; // #[elicit], asks = [..]
pub use crate::resources::{IntoResourceResult, ResourceDef, ResourceHandler, ResourceSet}; // #[resource], resources![]
pub use crate::schema::{NotParsed, Optional, Property}; // #[tool], #[prompt]: a named argument of the input schema
pub use crate::sets::Duplicates; // tools![], prompts![], resources![]: names (or URIs) listed twice
#[cfg(feature = "skills")]
pub use crate::skills::{EmbeddedFile, EmbeddedSkill, Skills, embedded as embedded_skills}; // skills!
pub use crate::tools::{
    BoxFuture, IntoToolResult, TaskMode, TaskStart, TaskSupport, ToolBox, ToolHandler, ToolSet,
}; // #[tool], #[toolbox], tools![]

use crate::protocol::{PromptArgument, Resource, ResourceTemplate, ToolAnnotations};
use crate::schema::Absent;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use serde_json::Value;

/// The context parameter's type. Implemented by [`Cx`] only.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not the request context",
    label = "a reference parameter of a `#[tool]`, `#[prompt]` or `#[resource]` function is the context",
    note = "write `cx: &rondo_mcp::Cx` (any alias of it works); arguments are owned values such as `String`"
)]
pub trait IsContext {
    /// Views the request's context as `Self`.
    fn from_cx(cx: &Cx) -> &Self;
}

impl IsContext for Cx {
    fn from_cx(cx: &Cx) -> &Self {
        cx
    }
}

/// `#[tool]`, `#[prompt]`, `#[resource]`: passes the context as the user's context type.
pub fn context<T: ?Sized + IsContext>(cx: &Cx) -> &T {
    T::from_cx(cx)
}

/// `#[tool]`: the definition listed by `tools/list`.
pub fn tool_definition(
    name: &str,
    title: Option<&str>,
    description: &str,
    input_schema: serde_json::Map<String, Value>,
    output_schema: Option<serde_json::Map<String, Value>>,
    hints: [Option<bool>; 4],
) -> Tool {
    let annotations = (hints.iter().any(Option::is_some)).then(|| ToolAnnotations {
        title: None,
        read_only_hint: hints[0],
        destructive_hint: hints[1],
        idempotent_hint: hints[2],
        open_world_hint: hints[3],
    });
    Tool {
        name: name.to_owned(),
        title: title.map(str::to_owned),
        description: Some(description.to_owned()),
        input_schema,
        output_schema,
        annotations,
        icons: None,
        meta: None,
    }
}

/// `#[tool]`, `#[prompt]`: the JSON Schema (2020-12, standard formats only) of the generated
/// arguments struct, from its `JsonSchema::json_schema` function (not generic: one copy for
/// every tool), without the root's `$schema` and `title` noise.
pub fn input_schema(json_schema: fn(&mut SchemaGenerator) -> Schema) -> JsonObject {
    crate::schema::root_object_with(&json_schema)
}

/// `#[tool]`, `#[prompt]` whose one parameter is `#[args] T`: the `json_schema` function of its
/// input schema (`schema::Flattened<T>`'s). The macros name it with `T` spanned at the user's
/// type, so a `T` that is not `JsonSchema` is one error there.
pub fn flattened_schema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    crate::schema::Flattened::<T>::json_schema(generator)
}

/// `#[tool]`, `#[prompt]` with named arguments only: the input schema of `properties`, the same
/// as the schema of a derived struct of them (design §9, "Build cost").
pub fn input_schema_of(properties: &[Property]) -> JsonObject {
    crate::schema::root_object_with(&|generator| crate::schema::object_of(generator, properties))
}

/// `#[tool]`: the schema of a tool with no arguments.
pub fn no_arguments() -> serde_json::Map<String, Value> {
    Tool::no_arguments()
}

/// `#[tool(input_schema = ..)]`: a verbatim schema, which must be a JSON object.
///
/// # Panics
/// When the expression is not a JSON object: a programming error, raised when the tool list is
/// built at start-up, never on a request.
pub fn schema_object(schema: impl Into<Value>) -> serde_json::Map<String, Value> {
    match schema.into() {
        Value::Object(m) => m,
        other => panic!("`#[tool(input_schema = ..)]` must be a JSON object, got {other}"),
    }
}

/// `#[tool]`, `#[prompt]`, `#[resource]`: the argument `name` as a `T`. The macros call it with the
/// user's type as the turbofish, spanned at that type, so a `T` that is not `Deserialize` is one
/// error there. An absent argument reads as absent (`Option<T>` is `None`), else it is missing.
// `for<'de> Deserialize<'de>` rather than `DeserializeOwned`: the error then carries serde's own
// note ("consider adding `#[derive(serde::Deserialize)]`").
pub fn arg<T: for<'de> Deserialize<'de>>(
    arguments: &JsonObject,
    name: &'static str,
) -> Result<T, String> {
    match arguments.get(name) {
        Some(value) => T::deserialize(value).map_err(|e| format!("`{name}`: {e}")),
        None => T::deserialize(Absent(name)).map_err(error_text),
    }
}

/// `#[tool]`, `#[prompt]`, `#[resource]` with `#[args]`: the arguments object, less the `named` ones
/// other parameters take, as a `T`.
pub fn flattened<T: for<'de> Deserialize<'de>>(
    arguments: &JsonObject,
    named: &[&str],
) -> Result<T, String> {
    T::deserialize(rest(arguments, named)).map_err(error_text)
}

/// The arguments `flattened` reads: the object less the `named` ones. Not generic, so the map
/// is built (and its entries sorted) by one copy of this code, not one per `#[args]` type.
fn rest(arguments: &JsonObject, named: &[&str]) -> Value {
    Value::Object(
        arguments
            .iter()
            .filter(|(k, _)| !named.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    )
}

/// A deserialisation error as the text a tool's caller reads.
fn error_text(e: serde_json::Error) -> String {
    e.to_string()
}

/// `#[tool]`: an argument that does not parse, as a tool execution error the model can read
/// (the call's future, ready).
pub fn invalid_tool_arguments(
    tool: &str,
    error: String,
) -> BoxFuture<'static, Result<CallToolResult, Error>> {
    let result = CallToolResult::error(format!(
        "Invalid arguments for tool `{tool}`: {}",
        crate::protocol::echo(error)
    ));
    Box::pin(std::future::ready(Ok(result)))
}

/// A type a `#[prompt]` argument may have: prompt arguments are strings on the wire.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a `#[prompt]` argument",
    note = "prompt arguments are strings on the wire: use `String` (required) or `Option<String>` (optional)"
)]
pub trait PromptArgumentType {}
impl PromptArgumentType for String {}
impl PromptArgumentType for Option<String> {}

/// `#[prompt]`: checks an argument's type.
pub fn assert_prompt_argument<T: PromptArgumentType>() {}

/// `#[prompt]`: the definition listed by `prompts/list`.
pub fn prompt_definition(
    name: &str,
    title: Option<&str>,
    description: &str,
    arguments: Vec<PromptArgument>,
) -> Prompt {
    Prompt {
        name: name.to_owned(),
        title: title.map(str::to_owned),
        description: Some(description.to_owned()),
        arguments: (!arguments.is_empty()).then_some(arguments),
        meta: None,
    }
}

/// `#[prompt]`: the argument list, read from the arguments struct's schema (names, required,
/// descriptions), so the listing and the parsing cannot disagree.
pub fn prompt_arguments(schema: JsonObject) -> Vec<PromptArgument> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let props = schema.get("properties").and_then(Value::as_object);
    props
        .into_iter()
        .flatten()
        .map(|(name, p)| PromptArgument {
            name: name.clone(),
            title: None,
            description: p
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_owned),
            required: Some(required.contains(&name.as_str())),
        })
        .collect()
}

/// `#[prompt]`: an argument that does not parse, as `-32602` (the get's future, ready).
pub fn invalid_prompt_arguments(
    prompt: &str,
    error: String,
) -> BoxFuture<'static, Result<GetPromptResult, Error>> {
    let error = Error::invalid_params(format!(
        "Invalid arguments for prompt `{prompt}`: {}",
        crate::protocol::echo(error)
    ));
    Box::pin(std::future::ready(Err(error)))
}

/// `#[resource]`: the listing of a resource or template.
pub fn resource_definition(
    templated: bool,
    uri: &str,
    name: &str,
    title: Option<&str>,
    description: Option<&str>,
    mime_type: Option<&str>,
) -> ResourceDef {
    let own = |s: Option<&str>| s.map(str::to_owned);
    if templated {
        ResourceDef::Template(ResourceTemplate {
            uri_template: uri.to_owned(),
            name: name.to_owned(),
            title: own(title),
            description: own(description),
            mime_type: own(mime_type),
            annotations: None,
            meta: None,
        })
    } else {
        let mut r = Resource::new(uri, name);
        r.title = own(title);
        r.description = own(description);
        r.mime_type = own(mime_type);
        ResourceDef::Static(r)
    }
}

/// `#[resource]`: the template variables, as the arguments object its parameters are parsed
/// from.
pub fn template_arguments(vars: BTreeMap<String, String>) -> JsonObject {
    vars.into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect()
}

/// `#[resource]`: a template variable that does not parse, as `-32602` naming the URI (the
/// read's future, ready).
pub fn invalid_template_arguments(
    uri: &str,
    error: String,
) -> BoxFuture<'static, Result<ReadResourceResult, Error>> {
    let error = Error::invalid_params(format!(
        "Invalid resource URI `{}`: {}",
        crate::protocol::echo(uri),
        crate::protocol::echo(error)
    ))
    .with_data(serde_json::json!({ "uri": crate::protocol::echo(uri) }));
    Box::pin(std::future::ready(Err(error)))
}

/// A value `#[elicit(default = ..)]` accepts for a field of type `T`: a `T`, a plain value for an
/// `Option` field, or a string literal for a string field.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a default for a `{T}` field",
    label = "the default must be a value of the field's type",
    note = "write a `{T}`; an `Option` field also takes the plain value, and a string field a string literal"
)]
pub trait IntoDefault<T> {
    /// The default as the field's type.
    fn into_default(self) -> T;
}

impl<T> IntoDefault<T> for T {
    fn into_default(self) -> T {
        self
    }
}

impl<T> IntoDefault<Option<T>> for T {
    fn into_default(self) -> Option<T> {
        Some(self)
    }
}

impl IntoDefault<String> for &str {
    fn into_default(self) -> String {
        self.to_owned()
    }
}

impl IntoDefault<Option<String>> for &str {
    fn into_default(self) -> Option<String> {
        Some(self.to_owned())
    }
}

/// `#[derive(Elicit)]`: a field's `default = ..` as the field's type `T`, checked at the
/// user's expression.
pub fn default_value<T, D: IntoDefault<T>>(default: D) -> T {
    default.into_default()
}
