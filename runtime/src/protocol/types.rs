//! The typed MCP model: capabilities, tools, content, prompts, resources and their results.
//!
//! One set of types serves both revisions. Fields that exist in only one revision are noted;
//! the dispatcher adds the revision-specific envelope (`resultType`, cache hints, `_meta`).

use super::JsonObject;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Name and version of a client or server (`Implementation`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Implementation {
    /// Programmatic name.
    pub name: String,
    /// Version string.
    pub version: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the implementation does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Home page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub website_url: Option<String>,
}

impl Implementation {
    /// A name and a version.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Implementation {
            name: name.into(),
            version: version.into(),
            title: None,
            description: None,
            website_url: None,
        }
    }
}

/// What a client declared it can do: per request on 2026-07-28, per session on 2025-11-25.
///
/// Leaf capability objects are kept as raw JSON objects so unknown sub-fields survive.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClientCapabilities {
    /// `elicitation: {form?, url?}`; `{}` means form only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<ElicitationCapability>,
    /// `sampling: {context?, tools?}` (deprecated in 2026-07-28, still served).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<SamplingCapability>,
    /// `roots: {}` (deprecated in 2026-07-28; 2025-11-25 adds `listChanged`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roots: Option<JsonObject>,
    /// Experimental capabilities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<JsonObject>,
    /// Extensions (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<JsonObject>,
    /// Tasks (2025-11-25 only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<JsonObject>,
}

/// `elicitation` capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ElicitationCapability {
    /// Form mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<JsonObject>,
    /// URL mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<JsonObject>,
}

/// `sampling` capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SamplingCapability {
    /// Deprecated `includeContext` values are allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<JsonObject>,
    /// Tool-enabled sampling is allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<JsonObject>,
}

impl ClientCapabilities {
    /// Form-mode elicitation is declared (`elicitation: {}` counts, per the spec).
    pub fn elicitation_form(&self) -> bool {
        self.elicitation
            .as_ref()
            .is_some_and(|e| e.form.is_some() || e.url.is_none())
    }
    /// URL-mode elicitation is declared.
    pub fn elicitation_url(&self) -> bool {
        self.elicitation.as_ref().is_some_and(|e| e.url.is_some())
    }
    /// Basic sampling is declared.
    pub fn sampling(&self) -> bool {
        self.sampling.is_some()
    }
    /// Tool-enabled sampling is declared.
    pub fn sampling_tools(&self) -> bool {
        self.sampling.as_ref().is_some_and(|s| s.tools.is_some())
    }
    /// Roots are declared.
    pub fn roots(&self) -> bool {
        self.roots.is_some()
    }
    /// The top-level capability names set in `self`, for messages.
    pub fn names(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.elicitation.is_some() {
            v.push("elicitation");
        }
        if self.sampling.is_some() {
            v.push("sampling");
        }
        if self.roots.is_some() {
            v.push("roots");
        }
        if self.experimental.is_some() {
            v.push("experimental");
        }
        if self.extensions.is_some() {
            v.push("extensions");
        }
        if self.tasks.is_some() {
            v.push("tasks");
        }
        v
    }
    /// What of `need` is missing from `self`, as a capabilities object; `None` when nothing is.
    pub fn missing(&self, need: &ClientCapabilities) -> Option<ClientCapabilities> {
        let mut out = ClientCapabilities::default();
        if let Some(e) = &need.elicitation {
            let form_needed = e.form.is_some() || e.url.is_none();
            if (form_needed && !self.elicitation_form())
                || (e.url.is_some() && !self.elicitation_url())
            {
                out.elicitation = Some(e.clone());
            }
        }
        if let Some(s) = &need.sampling {
            let have = self.sampling.as_ref();
            if have.is_none()
                || (s.tools.is_some() && !self.sampling_tools())
                || (s.context.is_some() && have.and_then(|h| h.context.as_ref()).is_none())
            {
                out.sampling = Some(s.clone());
            }
        }
        if need.roots.is_some() && !self.roots() {
            out.roots = need.roots.clone();
        }
        (out != ClientCapabilities::default()).then_some(out)
    }
    /// `{"elicitation": {}}` (form).
    pub fn with_elicitation_form() -> Self {
        ClientCapabilities {
            elicitation: Some(ElicitationCapability {
                form: Some(JsonObject::new()),
                url: None,
            }),
            ..Default::default()
        }
    }
    /// `{"elicitation": {"url": {}}}`.
    pub fn with_elicitation_url() -> Self {
        ClientCapabilities {
            elicitation: Some(ElicitationCapability {
                form: None,
                url: Some(JsonObject::new()),
            }),
            ..Default::default()
        }
    }
    /// `{"sampling": {}}`.
    pub fn with_sampling() -> Self {
        ClientCapabilities {
            sampling: Some(SamplingCapability::default()),
            ..Default::default()
        }
    }
    /// `{"roots": {}}`.
    pub fn with_roots() -> Self {
        ClientCapabilities {
            roots: Some(JsonObject::new()),
            ..Default::default()
        }
    }
}

/// What the server offers. Advertise only what is served: the dispatcher answers `-32601` for
/// the methods of a capability that is not set here.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerCapabilities {
    /// Tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<ListChanged>,
    /// Prompts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts: Option<ListChanged>,
    /// Resources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<ResourcesCapability>,
    /// `completion/complete`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completions: Option<JsonObject>,
    /// Log notifications (deprecated in 2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logging: Option<JsonObject>,
    /// Experimental.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<JsonObject>,
    /// Extensions (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<JsonObject>,
}

/// `{listChanged?}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListChanged {
    /// The server notifies list changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
}

/// `resources: {subscribe?, listChanged?}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourcesCapability {
    /// Resource update subscriptions are honoured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscribe: Option<bool>,
    /// The server notifies list changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
}

/// An icon (`Icon`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Icon {
    /// `https:` or `data:` URI.
    pub src: String,
    /// MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Sizes such as `"48x48"` or `"any"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sizes: Option<Vec<String>>,
    /// `"light"` or `"dark"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<String>,
}

/// A tool definition (`Tool`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    /// Unique name.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Hint to the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema (2020-12) of the arguments; its root is `type: "object"`.
    pub input_schema: JsonObject,
    /// JSON Schema of `structuredContent`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<JsonObject>,
    /// Behaviour hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// Icons.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

impl Tool {
    /// A tool with a name, a description and an input schema.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: JsonObject,
    ) -> Self {
        Tool {
            name: name.into(),
            title: None,
            description: Some(description.into()),
            input_schema,
            output_schema: None,
            annotations: None,
            icons: None,
            meta: None,
        }
    }
    /// The schema of a tool that takes no arguments: `{"type":"object","additionalProperties":false}`.
    pub fn no_arguments() -> JsonObject {
        let mut m = JsonObject::new();
        m.insert("type".into(), "object".into());
        m.insert("additionalProperties".into(), false.into());
        m
    }
}

/// `ToolAnnotations`: hints, never guarantees.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Does not modify its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// May perform destructive updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Repeating a call has no further effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// Interacts with an open world of external entities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

/// `Annotations` on content and resources.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// `"user"` and/or `"assistant"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// 0 (least) to 1 (most important).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// ISO 8601 timestamp.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

/// `"user"` or `"assistant"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The user.
    User,
    /// The model.
    Assistant,
}

/// A content block of a tool result or prompt message (`ContentBlock`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Content {
    /// Text.
    Text {
        /// The text.
        text: String,
        /// Annotations.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// A base64 image.
    Image {
        /// Base64 data.
        data: String,
        /// MIME type.
        #[serde(rename = "mimeType")]
        mime_type: String,
        /// Annotations.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// Base64 audio.
    Audio {
        /// Base64 data.
        data: String,
        /// MIME type.
        #[serde(rename = "mimeType")]
        mime_type: String,
        /// Annotations.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// A link to a resource the client may read.
    ResourceLink(Resource),
    /// An embedded resource.
    Resource {
        /// The resource contents.
        resource: ResourceContents,
        /// Annotations.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text {
            text: text.into(),
            annotations: None,
        }
    }
    /// An image block from base64 data.
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Content::Image {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }
    /// An audio block from base64 data.
    pub fn audio(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Content::Audio {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }
    /// An embedded resource block.
    pub fn resource(resource: ResourceContents) -> Self {
        Content::Resource {
            resource,
            annotations: None,
        }
    }
    /// A resource link block.
    pub fn resource_link(resource: Resource) -> Self {
        Content::ResourceLink(resource)
    }
}

/// The contents of a resource: text or base64 blob.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceContents {
    /// The resource URI.
    pub uri: String,
    /// MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Text contents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Base64 contents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

impl ResourceContents {
    /// Text contents.
    pub fn text(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        ResourceContents {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            text: Some(text.into()),
            blob: None,
            meta: None,
        }
    }
    /// Binary contents, already base64-encoded.
    pub fn blob(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        base64: impl Into<String>,
    ) -> Self {
        ResourceContents {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            text: None,
            blob: Some(base64.into()),
            meta: None,
        }
    }
}

/// A resource listed by `resources/list` (`Resource`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// URI.
    pub uri: String,
    /// Programmatic name.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Size in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Icons.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

impl Resource {
    /// A resource with a URI and a name.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Resource {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            annotations: None,
            icons: None,
            meta: None,
        }
    }
}

/// A URI template listed by `resources/templates/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceTemplate {
    /// RFC 6570 URI template.
    pub uri_template: String,
    /// Programmatic name.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
}

/// `CallToolResult` (without the revision envelope).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    /// Unstructured content.
    pub content: Vec<Content>,
    /// Structured output conforming to the tool's `outputSchema`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// A tool execution error the model can read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

impl CallToolResult {
    /// A successful result with content.
    pub fn success(content: Vec<Content>) -> Self {
        CallToolResult {
            content,
            ..Default::default()
        }
    }
    /// A successful result with one text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::success(vec![Content::text(text)])
    }
    /// A tool execution error with one text block.
    pub fn error(text: impl Into<String>) -> Self {
        CallToolResult {
            content: vec![Content::text(text)],
            is_error: Some(true),
            ..Default::default()
        }
    }
    /// A structured result, also serialised as text for older clients (the spec's SHOULD).
    pub fn structured(value: Value) -> Self {
        let text = serde_json::to_string(&value).unwrap_or_default();
        CallToolResult {
            content: vec![Content::text(text)],
            structured_content: Some(value),
            ..Default::default()
        }
    }
}

/// A prompt listed by `prompts/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Prompt {
    /// Programmatic name.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Vec<PromptArgument>>,
}

impl Prompt {
    /// A prompt with a name and a description.
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Prompt {
            name: name.into(),
            title: None,
            description: Some(description.into()),
            arguments: None,
        }
    }
    /// Adds an argument.
    pub fn argument(
        mut self,
        name: impl Into<String>,
        description: impl Into<String>,
        required: bool,
    ) -> Self {
        self.arguments
            .get_or_insert_with(Vec::new)
            .push(PromptArgument {
                name: name.into(),
                title: None,
                description: Some(description.into()),
                required: Some(required),
            });
        self
    }
}

/// A prompt argument.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptArgument {
    /// Name.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Must be given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
}

/// A message of a prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptMessage {
    /// Who speaks.
    pub role: Role,
    /// One content block.
    pub content: Content,
}

impl PromptMessage {
    /// A user message.
    pub fn user(content: Content) -> Self {
        PromptMessage {
            role: Role::User,
            content,
        }
    }
    /// An assistant message.
    pub fn assistant(content: Content) -> Self {
        PromptMessage {
            role: Role::Assistant,
            content,
        }
    }
}

/// `GetPromptResult` (without the revision envelope).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GetPromptResult {
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
}

/// `ReadResourceResult` (without the revision envelope).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadResourceResult {
    /// The contents; never empty for an existing resource.
    pub contents: Vec<ResourceContents>,
}

/// `completion/complete` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompleteRequest {
    /// `{type: "ref/prompt", name}` or `{type: "ref/resource", uri}`.
    #[serde(rename = "ref")]
    pub reference: CompletionRef,
    /// The argument being completed.
    pub argument: CompletionArgument,
    /// Previously resolved arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<CompletionContext>,
}

/// What a completion is for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum CompletionRef {
    /// A prompt argument.
    #[serde(rename = "ref/prompt")]
    Prompt {
        /// Prompt name.
        name: String,
    },
    /// A resource template variable.
    #[serde(rename = "ref/resource")]
    Resource {
        /// Template URI.
        uri: String,
    },
}

/// The argument being completed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompletionArgument {
    /// Argument name.
    pub name: String,
    /// Partial value.
    pub value: String,
}

/// Completion context.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompletionContext {
    /// Already resolved arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<std::collections::BTreeMap<String, String>>,
}

/// `CompleteResult.completion`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Completion {
    /// At most 100 values.
    pub values: Vec<String>,
    /// Total number of matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// More values exist.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_more: Option<bool>,
}

/// Log severity (RFC 5424 levels, ordered).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LoggingLevel {
    /// debug
    Debug,
    /// info
    Info,
    /// notice
    Notice,
    /// warning
    Warning,
    /// error
    Error,
    /// critical
    Critical,
    /// alert
    Alert,
    /// emergency
    Emergency,
}
