//! What a server asks of a client: elicitation, sampling and roots, and the client's answers.
//!
//! On 2026-07-28 these travel inside `InputRequiredResult.inputRequests` and come back in the
//! retried request's `inputResponses`; on 2025-11-25 they are real JSON-RPC requests.

use super::{
    ClientCapabilities, Content, ElicitationCapability, JsonObject, Role, SamplingCapability, Tool,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a question asks of the client: the capability it needs, down to the mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AskKind {
    /// `#[elicit(form)]`: `elicitation`, mode `form`.
    Form,
    /// `#[elicit(url)]`: `elicitation`, mode `url`.
    Url,
    /// `#[sample]`: `sampling`.
    Sampling,
    /// `#[roots]`: `roots`.
    Roots,
}

/// One question for the client.
#[derive(Debug, Clone, PartialEq)]
pub enum InputRequest {
    /// `elicitation/create`.
    Elicit(ElicitRequest),
    /// `sampling/createMessage` (deprecated in 2026-07-28, still served).
    Sample(CreateMessageRequest),
    /// `roots/list` (deprecated in 2026-07-28, still served).
    ListRoots,
}

impl InputRequest {
    /// The JSON-RPC method of the request.
    pub fn method(&self) -> &'static str {
        match self {
            InputRequest::Elicit(_) => "elicitation/create",
            InputRequest::Sample(_) => "sampling/createMessage",
            InputRequest::ListRoots => "roots/list",
        }
    }

    /// The params object, as sent on the wire.
    pub fn params(&self) -> Option<Value> {
        match self {
            InputRequest::Elicit(e) => serde_json::to_value(e).ok(),
            InputRequest::Sample(s) => serde_json::to_value(s).ok(),
            InputRequest::ListRoots => None,
        }
    }

    /// `{"method": ..., "params": ...}`, the value of an `inputRequests` entry.
    pub fn to_wire(&self) -> Value {
        // Built by moving the params in: `json!` would serialise the params value again.
        let mut wire = super::JsonObject::new();
        wire.insert("method".into(), self.method().into());
        if let Some(p) = self.params() {
            wire.insert("params".into(), p);
        }
        Value::Object(wire)
    }

    /// The request asked again because the last answer did not fit: an elicitation's message
    /// gets `why` (at most [`MAX_REASON_CHARS`] characters of it) after a blank line, so the
    /// user sees what to change. Derived from the rendering and the rejected answer only, so
    /// the same retry renders the same bytes. Sampling and roots have no message to carry it.
    pub fn asked_again(self, why: &str) -> InputRequest {
        let why = why.trim_end_matches('.');
        let note = |message: String| {
            let why = match why.char_indices().nth(MAX_REASON_CHARS) {
                Some((end, _)) => format!("{}...", &why[..end]),
                None => why.to_owned(),
            };
            format!("{message}\n\nAsked again because {why}.")
        };
        match self {
            InputRequest::Elicit(ElicitRequest::Form {
                message,
                requested_schema,
            }) => InputRequest::Elicit(ElicitRequest::Form {
                message: note(message),
                requested_schema,
            }),
            InputRequest::Elicit(ElicitRequest::Url {
                message,
                url,
                elicitation_id,
            }) => InputRequest::Elicit(ElicitRequest::Url {
                message: note(message),
                url,
                elicitation_id,
            }),
            other => other,
        }
    }

    /// The client capabilities this request needs, down to the elicitation mode and
    /// `sampling.tools` / `sampling.context`.
    pub fn required_capabilities(&self) -> ClientCapabilities {
        match self {
            InputRequest::Elicit(ElicitRequest::Form { .. }) => {
                ClientCapabilities::with_elicitation_form()
            }
            InputRequest::Elicit(ElicitRequest::Url { .. }) => ClientCapabilities {
                elicitation: Some(ElicitationCapability {
                    form: None,
                    url: Some(JsonObject::new()),
                }),
                ..Default::default()
            },
            InputRequest::Sample(s) => {
                let tools =
                    s.tools.as_ref().is_some_and(|t| !t.is_empty()) || s.tool_choice.is_some();
                let context = matches!(
                    s.include_context.as_deref(),
                    Some("thisServer" | "allServers")
                );
                ClientCapabilities {
                    sampling: Some(SamplingCapability {
                        tools: tools.then(JsonObject::new),
                        context: context.then(JsonObject::new),
                    }),
                    ..Default::default()
                }
            }
            InputRequest::ListRoots => ClientCapabilities::with_roots(),
        }
    }
}

/// The most characters of a reason that a re-asked question's message carries (a reason may
/// quote the client's answer, which the client chose).
pub const MAX_REASON_CHARS: usize = 300;

/// `elicitation/create` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "lowercase")]
pub enum ElicitRequest {
    /// Ask the user to fill in a flat form.
    Form {
        /// What is asked and why.
        message: String,
        /// A flat object schema of primitive fields.
        #[serde(rename = "requestedSchema")]
        requested_schema: JsonObject,
    },
    /// Send the user to a URL (sensitive data, third-party authorisation, payments).
    Url {
        /// What the page is for.
        message: String,
        /// The page.
        url: String,
        /// 2025-11-25 only: correlates `notifications/elicitation/complete`.
        #[serde(
            rename = "elicitationId",
            default,
            skip_serializing_if = "Option::is_none"
        )]
        elicitation_id: Option<String>,
    },
}

/// How the user answered an elicitation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElicitAction {
    /// Submitted (form) or consented (URL).
    Accept,
    /// Explicitly said no.
    Decline,
    /// Dismissed without choosing.
    Cancel,
}

/// `ElicitResult`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElicitResult {
    /// The user's choice.
    pub action: ElicitAction,
    /// The submitted form data (accept + form only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<JsonObject>,
}

/// A message in a sampling conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SamplingMessage {
    /// Who speaks.
    pub role: Role,
    /// One block or several (text, image, audio, `tool_use`, `tool_result`).
    pub content: SamplingContent,
}

impl SamplingMessage {
    /// A user text message.
    pub fn user_text(text: impl Into<String>) -> Self {
        SamplingMessage {
            role: Role::User,
            content: SamplingContent::One(Content::text(text).into()),
        }
    }
}

/// One or several sampling content blocks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SamplingContent {
    /// Several blocks (tried first: an untagged `One(Value)` would also take an array).
    Many(Vec<Value>),
    /// A single block.
    One(Value),
}

impl From<Content> for Value {
    fn from(c: Content) -> Value {
        serde_json::to_value(c).unwrap_or(Value::Null)
    }
}

impl SamplingContent {
    /// The concatenated text of the text blocks.
    pub fn text(&self) -> String {
        let one = |v: &Value| {
            (v.get("type").and_then(Value::as_str) == Some("text")).then(|| {
                v.get("text")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            })
        };
        match self {
            SamplingContent::One(v) => one(v).unwrap_or_default(),
            SamplingContent::Many(vs) => vs.iter().filter_map(one).collect::<Vec<_>>().join(""),
        }
    }
}

/// `sampling/createMessage` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageRequest {
    /// The conversation.
    pub messages: Vec<SamplingMessage>,
    /// Token cap the client must respect.
    pub max_tokens: u32,
    /// System prompt (the client may change or drop it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// Model preferences (advisory).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_preferences: Option<ModelPreferences>,
    /// Deprecated context inclusion (`"none"` unless `sampling.context` is declared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_context: Option<String>,
    /// Temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Stop sequences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_sequences: Option<Vec<String>>,
    /// Provider pass-through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<JsonObject>,
    /// Tools for tool-enabled sampling (needs `sampling.tools`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<Tool>>,
    /// Whether the model may, must or must not use the tools (needs `sampling.tools`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<ToolChoice>,
}

impl CreateMessageRequest {
    /// One user text message with a token cap.
    pub fn user(text: impl Into<String>, max_tokens: u32) -> Self {
        CreateMessageRequest {
            messages: vec![SamplingMessage::user_text(text)],
            max_tokens,
            system_prompt: None,
            model_preferences: None,
            include_context: None,
            temperature: None,
            stop_sequences: None,
            metadata: None,
            tools: None,
            tool_choice: None,
        }
    }
}

/// Which model the client should pick (`ModelPreferences`): advisory, the client decides.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelPreferences {
    /// Model names or families to prefer, in order (substring matches: `"claude"`, `"sonnet"`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<ModelHint>,
    /// How much cost matters, 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_priority: Option<f64>,
    /// How much speed matters, 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_priority: Option<f64>,
    /// How much capability matters, 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intelligence_priority: Option<f64>,
}

impl ModelPreferences {
    /// No preference yet.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds a model name hint (evaluated in order by the client).
    pub fn hint(mut self, name: impl Into<String>) -> Self {
        self.hints.push(ModelHint {
            name: Some(name.into()),
        });
        self
    }
    /// How much cost matters (clamped to 0..=1).
    pub fn cost(mut self, priority: f64) -> Self {
        self.cost_priority = Some(priority.clamp(0.0, 1.0));
        self
    }
    /// How much speed matters (clamped to 0..=1).
    pub fn speed(mut self, priority: f64) -> Self {
        self.speed_priority = Some(priority.clamp(0.0, 1.0));
        self
    }
    /// How much capability matters (clamped to 0..=1).
    pub fn intelligence(mut self, priority: f64) -> Self {
        self.intelligence_priority = Some(priority.clamp(0.0, 1.0));
        self
    }
}

/// A model name hint (`ModelHint`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelHint {
    /// A model name or a part of one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// `ToolChoice`: whether the model may, must or must not call the request's tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "lowercase")]
pub enum ToolChoice {
    /// The model decides (the default).
    Auto,
    /// The model must use at least one tool.
    Required,
    /// The model must not use tools.
    None,
}

/// `CreateMessageResult`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageResult {
    /// Normally `assistant`.
    pub role: Role,
    /// The generated content.
    pub content: SamplingContent,
    /// The model that answered.
    pub model: String,
    /// Why generation stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
}

/// A root (`Root`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Root {
    /// A `file://` URI.
    pub uri: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// `ListRootsResult`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListRootsResult {
    /// The client's roots.
    pub roots: Vec<Root>,
}
