//! Every runtime and std path an expansion names, in one place (CONTRIBUTING.md, "Paths and
//! hygiene"). Generated code reaches the runtime only through `#krate::__private` (CONTRIBUTING.md,
//! "The contract between the macros and the runtime"), so the methods of [`Paths`] are the whole
//! list of what the macros need from `runtime/src/__private.rs`; a change there shows up here. Std
//! paths are fully qualified, so a user's `struct Result;` or `struct Some;` cannot capture them
//! (`tests/tests/macros/hygiene.rs`).

use proc_macro2::{Ident, Punct, Spacing, Span, TokenStream};
use quote::{ToTokens, TokenStreamExt, quote};

/// The runtime crate when `crate = ..` is not given.
pub fn default_crate() -> syn::Path {
    syn::parse_quote!(::rondo_mcp)
}

/// An absolute std or core path, written `::a::b::C`; it interpolates into `quote!` as `#NAME`,
/// with the same tokens `quote!(::a::b::C)` would produce.
pub struct StdPath(&'static str);

impl ToTokens for StdPath {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        for segment in self.0.split("::").filter(|s| !s.is_empty()) {
            tokens.append(Punct::new(':', Spacing::Joint));
            tokens.append(Punct::new(':', Spacing::Alone));
            tokens.append(Ident::new(segment, Span::call_site()));
        }
    }
}

/// `::core::result::Result`: the return type of every handler future.
pub const RESULT: StdPath = StdPath("::core::result::Result");
/// `::core::result::Result::Ok`.
pub const OK: StdPath = StdPath("::core::result::Result::Ok");
/// `::core::result::Result::Err`.
pub const ERR: StdPath = StdPath("::core::result::Result::Err");
/// `::core::option::Option`: `ToolBox::call` answers `None` for a name it does not serve.
pub const OPTION: StdPath = StdPath("::core::option::Option");
/// `::core::option::Option::Some`.
pub const SOME: StdPath = StdPath("::core::option::Option::Some");
/// `::core::option::Option::None`.
pub const NONE: StdPath = StdPath("::core::option::Option::None");
/// `::std::boxed::Box::pin`: handler futures are boxed to name them in a trait.
pub const BOX_PIN: StdPath = StdPath("::std::boxed::Box::pin");
/// `::std::vec::Vec`.
pub const VEC: StdPath = StdPath("::std::vec::Vec");
/// `::std::vec`, the macro: written `#VEC_MACRO![..]`.
pub const VEC_MACRO: StdPath = StdPath("::std::vec");
/// `::std::string::String`.
pub const STRING: StdPath = StdPath("::std::string::String");
/// `::core::primitive::str`: a user's `type str = ..;` cannot capture it.
pub const STR: StdPath = StdPath("::core::primitive::str");
/// `::core::primitive::bool`.
pub const BOOL: StdPath = StdPath("::core::primitive::bool");
/// `::core::panic`, the macro: the bodies of the stubs emitted next to errors, never run.
pub const PANIC: StdPath = StdPath("::core::panic");
/// `::core::include_bytes`, the macro: `skills!` embeds each file with it (and so cargo
/// rebuilds when one changes).
#[cfg(feature = "skills")]
pub const INCLUDE_BYTES: StdPath = StdPath("::core::include_bytes");
/// `::core::concat`, the macro.
#[cfg(feature = "skills")]
pub const CONCAT: StdPath = StdPath("::core::concat");
/// `::core::env`, the macro: `skills!` names its folder from `CARGO_MANIFEST_DIR`.
#[cfg(feature = "skills")]
pub const ENV: StdPath = StdPath("::core::env");
/// `::core::assert`, the macro: `skills!`'s `const` check of each file's size.
#[cfg(feature = "skills")]
pub const ASSERT: StdPath = StdPath("::core::assert");
/// `::core::primitive::u8`.
#[cfg(feature = "skills")]
pub const U8: StdPath = StdPath("::core::primitive::u8");

/// The runtime's `__private` module (below `::rondo_mcp` unless `crate = ..` says otherwise) and
/// the items of it that expansions name.
#[derive(Clone)]
pub struct Paths {
    /// `#krate::__private`: the only module of the runtime generated code may reference.
    p: TokenStream,
    /// Whether `krate` starts with `$crate`, which a string literal cannot spell.
    dollar_crate: bool,
}

impl Paths {
    /// Paths below `krate`.
    pub fn new(krate: &syn::Path) -> Self {
        let first = krate.segments.first().map(|s| s.ident.to_string());
        Paths {
            p: quote!(#krate::__private),
            dollar_crate: first.as_deref() == Some("$crate"),
        }
    }

    /// `schemars(crate = "..")` of the arguments struct `args`, and an item to emit before it.
    /// The derive takes the path in a string literal: the runtime's re-export written out, or,
    /// when the crate path starts with `$crate` (which has no spelling in a string), a name
    /// (one per struct, as a toolbox has several) the item imports the re-export under.
    pub fn schemars_crate(&self, args: &Ident) -> (TokenStream, String) {
        let schemars = self.schemars();
        if self.dollar_crate {
            let alias = Ident::new(&format!("{args}_schemars"), Span::call_site());
            (quote!(use #schemars as #alias;), alias.to_string())
        } else {
            (
                TokenStream::new(),
                quote!(#schemars).to_string().replace(' ', ""),
            )
        }
    }

    /// `BoxFuture<'__rondo, Result<#ok, Error>>`: what every handler method returns, borrowing the
    /// context (and `&self`) for `'__rondo`.
    pub fn handler_future(&self, ok: impl ToTokens) -> TokenStream {
        let (future, error) = (self.box_future(), self.error());
        quote!(#future<'__rondo, #RESULT<#ok, #error>>)
    }
}

/// An item of `__private`, interpolating as `#krate::__private::Item`.
#[derive(Clone, Copy)]
pub struct PrivatePath<'a> {
    /// `#krate::__private`.
    module: &'a TokenStream,
    /// The item's path below the module: `ToolHandler`, `schemars::JsonSchema`.
    item: &'static str,
    /// The span of the item's segments; the module keeps its own.
    span: Span,
}

impl PrivatePath<'_> {
    /// The path with the item's segments at `span`, as `quote_spanned!(span=> #p::Item)` writes
    /// it: where a bound on the item fails, rustc then points at the user's token.
    pub fn at(self, span: Span) -> Self {
        PrivatePath { span, ..self }
    }
}

impl ToTokens for PrivatePath<'_> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.module.to_tokens(tokens);
        for segment in self.item.split("::") {
            let mut joint = Punct::new(':', Spacing::Joint);
            let mut alone = Punct::new(':', Spacing::Alone);
            joint.set_span(self.span);
            alone.set_span(self.span);
            tokens.append(joint);
            tokens.append(alone);
            tokens.append(Ident::new(segment, self.span));
        }
    }
}

/// Defines one method of [`Paths`] per `__private` item: `method => Item` gives
/// `fn method(&self) -> PrivatePath` for `#krate::__private::Item`.
macro_rules! private_items {
    ($($(#[doc = $doc:literal])+ $method:ident => $item:literal;)*) => {
        impl Paths {
            $(
                $(#[doc = $doc])+
                pub fn $method(&self) -> PrivatePath<'_> {
                    PrivatePath {
                        module: &self.p,
                        item: $item,
                        span: Span::call_site(),
                    }
                }
            )*
        }
    };
}

private_items! {
    /// `Cx`: the request context every handler receives.
    cx => "Cx";
    /// `JsonObject`: the raw arguments of a call.
    json_object => "JsonObject";
    /// `BoxFuture`: see [`Paths::handler_future`].
    box_future => "BoxFuture";
    /// `Error`: the protocol error of a failed request.
    error => "Error";
    /// `context::<T>()`: the context as the user's context type, checked at that type.
    context => "context";
    /// `arg::<T>()`: one named argument, checked at the user's type.
    arg => "arg";
    /// `flattened::<T>()`: the arguments of an `#[args]` struct, checked at the user's type.
    flattened => "flattened";
    /// `schemars`: the runtime's re-export, so users need no `schemars` dependency.
    schemars => "schemars";
    /// `schemars::JsonSchema`: derived on the arguments struct for the schema.
    json_schema => "schemars::JsonSchema";

    /// `ToolHandler`: implemented by the hidden type of a `#[tool]` function.
    tool_handler => "ToolHandler";
    /// `ToolBox`: implemented by `#[toolbox]` for the type of its `impl` block.
    tool_box => "ToolBox";
    /// `TaskMode`: `ToolHandler::TASK` and `ToolBox::task_mode` of a `task = ..` tool.
    task_mode => "TaskMode";
    /// `Scope`: the `SCOPES` of a tool, prompt or resource with `scopes = [..]`, and
    /// `ToolBox::scopes`.
    scope => "Scope";
    /// `ToolSet`: built by `tools![..]`.
    tool_set => "ToolSet";
    /// `Tool`: the definition in `tools/list`.
    tool => "Tool";
    /// `CallToolResult`: what a tool call answers.
    call_tool_result => "CallToolResult";
    /// `IntoToolResult`: converts what a tool returns, and gives its output schema.
    trait_into_tool_result => "IntoToolResult";
    /// `tool_definition()`: builds a [`Paths::tool`].
    tool_definition => "tool_definition";
    /// `invalid_tool_arguments()`: an argument that does not parse, as a result the model can
    /// read.
    invalid_tool_arguments => "invalid_tool_arguments";
    /// `input_schema(json_schema)`: the schema of the arguments struct, from its
    /// `JsonSchema::json_schema` (a function pointer: the runtime's code is not generic).
    input_schema => "input_schema";
    /// `input_schema_of(&[Property, ..])`: the schema of named arguments, without a derive.
    input_schema_of => "input_schema_of";
    /// `Property`: one named argument of [`Paths::input_schema_of`].
    property => "Property";
    /// `flattened_schema::<T>`: the schema of a lone `#[args] T` parameter.
    flattened_schema => "flattened_schema";
    /// `Optional`: `Optional::<T>::optional` is a property's `optional`.
    optional => "Optional";
    /// `NotParsed`: the stand-in `optional` for a type that is not `Deserialize`.
    not_parsed => "NotParsed";
    /// `schemars::SchemaGenerator`: its `subschema_for::<T>` is a property's schema.
    schema_generator => "schemars::SchemaGenerator";
    /// `no_arguments()`: the schema of a tool without arguments.
    no_arguments => "no_arguments";
    /// `schema_object()`: a verbatim `input_schema = ..`.
    schema_object => "schema_object";

    /// `PromptHandler`: implemented by the hidden type of a `#[prompt]` function.
    prompt_handler => "PromptHandler";
    /// `PromptSet`: built by `prompts![..]`.
    prompt_set => "PromptSet";
    /// `Prompt`: the definition in `prompts/list`.
    prompt => "Prompt";
    /// `GetPromptResult`: what `prompts/get` answers.
    get_prompt_result => "GetPromptResult";
    /// `IntoPromptResult`: converts what a prompt returns.
    trait_into_prompt_result => "IntoPromptResult";
    /// `prompt_definition()`: builds a [`Paths::prompt`].
    prompt_definition => "prompt_definition";
    /// `prompt_arguments(schema)`: the listed arguments, read from the input schema.
    prompt_arguments => "prompt_arguments";
    /// `invalid_prompt_arguments()`: an argument that does not parse, as `-32602`.
    invalid_prompt_arguments => "invalid_prompt_arguments";
    /// `assert_prompt_argument::<T>()`: prompt arguments are strings, checked at the user's type.
    assert_prompt_argument => "assert_prompt_argument";

    /// `ResourceHandler`: implemented by the hidden type of a `#[resource]` function.
    resource_handler => "ResourceHandler";
    /// `ResourceSet`: built by `resources![..]`.
    resource_set => "ResourceSet";
    /// `ResourceDef`: the listing of a resource or template.
    resource_def => "ResourceDef";
    /// `ReadResourceResult`: what `resources/read` answers.
    read_resource_result => "ReadResourceResult";
    /// `IntoResourceResult`: converts what a resource returns.
    trait_into_resource_result => "IntoResourceResult";
    /// `resource_definition()`: builds a [`Paths::resource_def`].
    resource_definition => "resource_definition";
    /// `template_arguments()`: the template variables, as the arguments the parsers read.
    template_arguments => "template_arguments";
    /// `invalid_template_arguments()`: a variable that does not parse, as `-32602`.
    invalid_template_arguments => "invalid_template_arguments";
    /// `BTreeMap`: the template variables, by name.
    btree_map => "BTreeMap";

    /// `Duplicates`: the list macros' `const` check for a repeated name or URI.
    duplicates => "Duplicates";

    /// `Asked`: what a question function returns, its inputs kept for rendering or fallback.
    asked => "Asked";
    /// `Ask`: a question's rendering and fallback, per input types.
    ask => "Ask";
    /// `QuestionDecl`: a question's key and, for `fallback = args`, its tool arguments.
    question_decl => "QuestionDecl";
    /// `AnswerOf<Q, I>`: the answer type of question `Q` asked with inputs `I`.
    answer_of => "AnswerOf";
    /// `Fallback`: what a fallback gives, the answer or the end of the tool.
    fallback => "Fallback";
    /// `Mode::<R>::form()`/`url()`: the mode check of an `#[elicit]` function's return type.
    mode => "Mode";
    /// `NotRendered`: the stand-ins of `Mode` for a type that is no rendering (in scope).
    not_rendered => "NotRendered";
    /// `RootsQuestion`: the answer of a `#[roots]` function (`Roots`), which renders itself.
    roots_question => "RootsQuestion";
    /// `input()`: a clone of one input for rendering, checked at the input's type.
    input => "input";
    /// `refuse()`: `fallback = refuse`.
    refuse => "refuse";
    /// `FormArgs::<R>`: `fallback = args`, what it reads of the form `R` (fields, consent,
    /// schema, the answer built from the tool's arguments).
    form_args => "FormArgs";
    /// `NotAForm`: the stand-ins of `FormArgs` for a function that returns no form (in scope).
    not_a_form => "NotAForm";
    /// `rendered::<R>()`: the check that an `#[elicit]` function returns a rendering.
    rendered => "rendered";
    /// `is_sample::<R>()`: the check of a `#[sample]` function's return type.
    is_sample => "is_sample";
    /// `is_roots::<R>()`: the check of a `#[roots]` function's return type.
    is_roots => "is_roots";
    /// `Rendered`: what a question function returns, assumed by its `Ask` impl.
    rendered_trait => "Rendered";
    /// `FallbackCall`: a fallback function's result, sync or async (autoref dispatch).
    fallback_call => "FallbackCall";
    /// `ViaFuture`: the `FallbackCall` method for an `async` fallback.
    via_future => "ViaFuture";
    /// `ViaValue`: the `FallbackCall` method for a sync fallback.
    via_value => "ViaValue";
    /// `Declared`: implemented by a question for the hidden set of a function that asks it.
    declared => "Declared";
    /// `Listed::<Q>`: what the checks of `asks = [..]` read of an entry.
    listed => "Listed";
    /// `NotListed`: the stand-ins of `Listed` for an entry that is not a question (in scope).
    not_listed => "NotListed";
    /// `AsksOf<N>`: the set of declared questions of a `#[toolbox]`'s `N`th tool.
    asks_of => "AsksOf";
    /// `RebindCx`: rebinding a function's context to its `Asking`, the first step.
    rebind_cx => "RebindCx";
    /// `RebindOther`: the first step for a context of another type, kept as it is.
    rebind_other => "RebindOther";
    /// `RebindRef`: rebinding a function's context to its `Asking`, the second step.
    rebind_ref => "RebindRef";
    /// `RebindRefOther`: the second step for a context of another type, kept as it is.
    rebind_ref_other => "RebindRefOther";
    /// `AskMeta`: what a question asks and its fallback, as `tools/list` advertises it.
    ask_meta => "AskMeta";
    /// `AskKind`: what a question asks of the client (`AskMeta::kind`).
    ask_kind => "AskKind";
    /// `FallbackKind`: what a question does without an answer (`AskMeta::fallback`).
    fallback_kind => "FallbackKind";
    /// `with_asks()`: a tool's, prompt's or resource's definition with its questions in its `_meta`.
    with_asks => "with_asks";
    /// `with_question_arguments()`: a tool's input schema plus its `fallback = args` questions.
    with_question_arguments => "with_question_arguments";
    /// `argument_collision()`: the index of a tool argument that is also a question's field.
    argument_collision => "argument_collision";
    /// `Elicit`: implemented by `#[derive(Elicit)]` for a struct (a form).
    elicit => "Elicit";
    /// `FormField`: every form field's type; implemented by the derive for a unit enum.
    form_field => "FormField";
    /// `ElicitEnum`: implemented by `#[derive(Elicit)]` for a unit enum (a choice).
    elicit_enum => "ElicitEnum";
    /// `EnumOption`: one option of a choice.
    enum_option => "EnumOption";
    /// `FieldKind`: what a field is, checked in `const` against the keys written on it.
    field_kind => "FieldKind";
    /// `FieldProblem`: why one field of an answer does not fit.
    field_problem => "FieldProblem";
    /// `FormError`: why an answer does not fit a form.
    form_error => "FormError";
    /// `FieldSpec`: what the attributes and doc comment say about a field, built in `const`.
    field_spec => "FieldSpec";
    /// `FormSchema`: renders the `requestedSchema` from the field specs.
    form_schema => "FormSchema";
    /// `FormReader`: reads an answer back with the field specs' checks.
    form_reader => "FormReader";
    /// `Bound`: a `min`/`max` literal.
    bound => "Bound";
    /// `StringFormat`: a `format` of a string field.
    string_format => "StringFormat";
    /// `Revision`: the protocol revision a schema is rendered for.
    revision => "Revision";
    /// `serde_json::Value`: a field's value in an answer.
    json_value => "serde_json::Value";
    /// `enum_schema::<E>()`: a choice's schema.
    enum_schema => "enum_schema";
    /// `enum_from_value::<E>()`: reads a choice.
    enum_from_value => "enum_from_value";
    /// `enum_to_value()`: a choice's wire value, for `default`.
    enum_to_value => "enum_to_value";
    /// `default_value::<T, _>()`: a field's `default = ..`, checked at the user's expression.
    default_value => "default_value";
}

#[cfg(feature = "skills")]
private_items! {
    /// `embedded_skills()`: the `Skills` of what `skills!` checked and embedded.
    embedded_skills => "embedded_skills";
    /// `EmbeddedSkill`: one skill `skills!` embedded.
    embedded_skill => "EmbeddedSkill";
    /// `EmbeddedFile`: one file `skills!` embedded, with its digest.
    embedded_file => "EmbeddedFile";
}
