//! Who the parties are and what they declared: `Implementation`, client and server capabilities.

use super::JsonObject;
use serde::{Deserialize, Serialize};

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

/// The id of the tasks extension (SEP-2663), under `extensions` in both sides' capabilities.
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

impl ClientCapabilities {
    /// Whether the extension `id` is declared (`extensions[id]` present, any value).
    pub fn declares_extension(&self, id: &str) -> bool {
        self.extensions.as_ref().is_some_and(|e| e.contains_key(id))
    }
    /// `{"extensions": {id: {}}}`.
    pub fn with_extension(id: &str) -> Self {
        let mut extensions = JsonObject::new();
        extensions.insert(id.to_owned(), serde_json::Value::Object(JsonObject::new()));
        ClientCapabilities {
            extensions: Some(extensions),
            ..Default::default()
        }
    }
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
        if let Some(need) = &need.extensions {
            let absent: JsonObject = need
                .iter()
                .filter(|(id, _)| !self.declares_extension(id))
                .map(|(id, v)| (id.clone(), v.clone()))
                .collect();
            if !absent.is_empty() {
                out.extensions = Some(absent);
            }
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
