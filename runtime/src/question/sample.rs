//! [`Sample<T>`]: what a `#[sample]` function renders (a `sampling/createMessage` request), and
//! how the model's answer becomes a `T` ([`SampleAnswer`]): its text, JSON matching `T`'s
//! schema, or the whole reply with its tool calls ([`ModelReply`]).
//!
//! Sampling is deprecated in 2026-07-28 and many clients never implemented it, so every
//! sampling question has a fallback, and anything short of a usable answer takes it.

use super::{Failed, Read, Rendered};
use crate::cx::AskError;
use crate::protocol::{
    ClientCapabilities, Content, CreateMessageRequest, CreateMessageResult, InputRequest,
    ModelPreferences, Revision, Role, SamplingContent, SamplingMessage, Tool, ToolChoice, echo,
};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::fmt;

/// A request for the client's model: the conversation and how to sample it. The answer is a
/// `T` ([`SampleAnswer`]): `String` for the text, a `Deserialize + JsonSchema` type for JSON
/// (the schema goes into the system prompt, and the model's text is parsed, fenced code block
/// or not), or [`ModelReply`] for the whole reply, tool calls included.
pub struct Sample<T = String> {
    request: CreateMessageRequest,
    /// How the answer reads, taken from `T`'s [`SampleAnswer`] impl where the request is built:
    /// the constructors are the one place that requires it, so a `Sample<T>` whose `T` is no
    /// answer is one error, there, and nothing that names the type (a question's fallback, the
    /// asks) adds another.
    answer: AnswerReader<T>,
}

/// `T`'s [`SampleAnswer`] functions.
struct AnswerReader<T> {
    instruction: fn() -> Option<String>,
    from_reply: fn(ModelReply) -> Result<T, String>,
}

impl<T: SampleAnswer> Sample<T> {
    /// A conversation of one user message with this text; 1000 tokens at most.
    pub fn user(text: impl Into<String>) -> Self {
        Sample::conversation(vec![SamplingMessage::user_text(text)])
    }

    /// A conversation of these messages (text, images, audio, tool uses and results).
    pub fn conversation(messages: Vec<SamplingMessage>) -> Self {
        Sample {
            request: CreateMessageRequest {
                messages,
                ..CreateMessageRequest::user("", DEFAULT_MAX_TOKENS)
            },
            answer: AnswerReader {
                instruction: T::instruction,
                from_reply: T::from_reply,
            },
        }
    }
}

impl<T> Sample<T> {
    /// Adds a message after the others.
    pub fn then(mut self, message: SamplingMessage) -> Self {
        self.request.messages.push(message);
        self
    }

    /// Adds a user message with an image (base64 `data`).
    pub fn image(self, data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        self.then(block(Role::User, Content::image(data, mime_type)))
    }

    /// Adds a user message with audio (base64 `data`).
    pub fn audio(self, data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        self.then(block(Role::User, Content::audio(data, mime_type)))
    }

    /// The system prompt (the client may change or drop it).
    pub fn system(mut self, prompt: impl Into<String>) -> Self {
        self.request.system_prompt = Some(prompt.into());
        self
    }

    /// The most tokens the client may sample (it must respect it).
    pub fn max_tokens(mut self, tokens: u32) -> Self {
        self.request.max_tokens = tokens;
        self
    }

    /// The temperature (the client may ignore it).
    pub fn temperature(mut self, temperature: f64) -> Self {
        self.request.temperature = Some(temperature);
        self
    }

    /// Sequences that end the sample (the client may ignore them).
    pub fn stop_sequences<S: Into<String>>(mut self, stops: impl IntoIterator<Item = S>) -> Self {
        self.request.stop_sequences = Some(stops.into_iter().map(Into::into).collect());
        self
    }

    /// Which model to prefer (advisory).
    pub fn model_preferences(mut self, preferences: ModelPreferences) -> Self {
        self.request.model_preferences = Some(preferences);
        self
    }

    /// Tools the model may call. A request with tools goes only to a client that declared
    /// `sampling.tools`; for any other, the question's fallback runs.
    pub fn tools(mut self, tools: Vec<Tool>) -> Self {
        self.request.tools = Some(tools);
        self
    }

    /// Whether the model may, must or must not call the tools.
    pub fn tool_choice(mut self, choice: ToolChoice) -> Self {
        self.request.tool_choice = Some(choice);
        self
    }

    /// The request as rendered so far.
    pub fn request(&self) -> &CreateMessageRequest {
        &self.request
    }
}

/// The token cap of a request that does not set one.
const DEFAULT_MAX_TOKENS: u32 = 1000;

fn block(role: Role, content: Content) -> SamplingMessage {
    SamplingMessage {
        role,
        content: SamplingContent::One(content.into()),
    }
}

impl<T> fmt::Debug for Sample<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sample")
            .field("request", &self.request)
            .finish()
    }
}

impl<T: Send + 'static> Rendered for Sample<T> {
    type Answer = T;

    fn needs() -> ClientCapabilities {
        ClientCapabilities::with_sampling()
    }

    /// A model's answer is data, not consent.
    fn consent(&self) -> bool {
        false
    }

    fn request(&self, _revision: Revision) -> InputRequest {
        let mut request = self.request.clone();
        if let Some(instruction) = (self.answer.instruction)() {
            request.system_prompt = Some(match request.system_prompt {
                Some(prompt) => format!("{prompt}\n\n{instruction}"),
                None => instruction,
            });
        }
        InputRequest::Sample(request)
    }

    /// A reply that is no sampling result, or whose content does not give what `T` needs
    /// (no text for a text answer, JSON that does not parse), is not asked again (the same
    /// reply would be pinned to the same question): the fallback runs, and the engine logs why.
    fn read(&self, _key: &'static str, _sent: &InputRequest, answer: Value) -> Read<T> {
        let reply: CreateMessageResult = match serde_json::from_value(answer) {
            Ok(r) => r,
            Err(e) => {
                return Read::Fallback(format!("the reply is not a sampling result: {}", echo(e)));
            }
        };
        // `why` quotes the model's text (a serde error of the JSON asked for, the kinds of
        // its content blocks, whatever an answer type says): cut.
        match (self.answer.from_reply)(ModelReply::from(reply)) {
            Ok(t) => Read::Answer(t),
            Err(why) => Read::Fallback(format!("the model's reply: {}", echo(why))),
        }
    }

    /// A rejection, an error, a timeout: sampling is optional, so the fallback runs.
    fn failed(&self, key: &'static str, why: &AskError) -> Failed<T> {
        tracing::info!(question = key, %why, "sampling failed; taking the fallback");
        Failed::Fallback
    }
}

/// What a sampling question's answer can be: the model's reply read as `Self`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the answer of a sampling question",
    label = "not an answer type",
    note = "use `Sample<String>` for the text, `Sample<T>` with `#[derive(serde::Deserialize, schemars::JsonSchema)]` on `T` for JSON, or `Sample<ModelReply>` for the whole reply"
)]
pub trait SampleAnswer: Sized + Send + 'static {
    /// What the system prompt must add so the model answers in this shape, if anything.
    fn instruction() -> Option<String>;
    /// Reads the reply.
    fn from_reply(reply: ModelReply) -> Result<Self, String>;
}

/// Any `Deserialize + JsonSchema` type: text when its schema is a string (`String` and the
/// like), otherwise JSON matching its schema. Not recommended in diagnostics, so a type that is
/// no answer is one error in [`SampleAnswer`]'s words (at `Sample::user(..)`), not one per
/// missing serde or schemars trait.
#[diagnostic::do_not_recommend]
impl<T: DeserializeOwned + JsonSchema + Send + 'static> SampleAnswer for T {
    fn instruction() -> Option<String> {
        let schema = answer_schema::<T>();
        if is_text(&schema) {
            return None;
        }
        Some(format!(
            "Answer with one JSON value that matches this JSON Schema, and nothing else:\n{}",
            crate::canonical::to_canonical(&schema)
        ))
    }

    fn from_reply(reply: ModelReply) -> Result<Self, String> {
        let text = text_of(&reply)?;
        if is_text(&answer_schema::<T>()) {
            return serde_json::from_value(Value::String(text)).map_err(|e| e.to_string());
        }
        serde_json::from_str(json_in(&text)).map_err(|e| format!("not the JSON asked for: {e}"))
    }
}

/// The text of a reply that must have some: its text blocks, concatenated. A reply without a
/// text block (an image, audio, a tool call, no content at all) or with a text block whose
/// `text` is not a string has none, which is an error, never an empty answer.
fn text_of(reply: &ModelReply) -> Result<String, String> {
    let mut text = None::<String>;
    for block in &reply.content {
        if block.get("type").and_then(Value::as_str) != Some("text") {
            continue;
        }
        match block.get("text").and_then(Value::as_str) {
            Some(t) => text.get_or_insert_with(String::new).push_str(t),
            None => return Err("a text block's `text` is not a string".into()),
        }
    }
    text.ok_or_else(|| {
        let kinds: Vec<&str> = reply
            .content
            .iter()
            .map(|b| b.get("type").and_then(Value::as_str).unwrap_or("untyped"))
            .collect();
        if kinds.is_empty() {
            "it has no content, so no text".to_owned()
        } else {
            format!("it has no text, only {}", kinds.join(", "))
        }
    })
}

fn answer_schema<T: JsonSchema>() -> Value {
    let mut schema = crate::schema::root_schema_for::<T>().to_value();
    if let Some(obj) = schema.as_object_mut() {
        obj.remove("$schema");
        obj.remove("title");
    }
    schema
}

/// Whether a schema describes plain text: `{"type": "string"}` and nothing narrower.
fn is_text(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("string")
        && schema.as_object().is_some_and(|o| {
            o.keys()
                .all(|k| matches!(k.as_str(), "type" | "description"))
        })
}

/// The JSON in a model's text: the content of its first fenced code block when it has one
/// (models often wrap JSON in ```json fences), else the whole text, trimmed.
fn json_in(text: &str) -> &str {
    let Some(start) = text.find("```") else {
        return text.trim();
    };
    let after = &text[start + 3..];
    let body = after.split_once('\n').map_or(after, |(_, rest)| rest);
    match body.find("```") {
        Some(end) => body[..end].trim(),
        None => body.trim(),
    }
}

/// The whole reply of the client's model (`CreateMessageResult`): its content blocks, the tool
/// calls among them, which model answered and why it stopped.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelReply {
    /// The content blocks (text, image, audio, `tool_use`), as sent.
    pub content: Vec<Value>,
    /// The model that answered.
    pub model: String,
    /// Why sampling stopped (`endTurn`, `stopSequence`, `maxTokens`, `toolUse`, ...).
    pub stop_reason: Option<String>,
}

impl ModelReply {
    /// The concatenated text of the text blocks.
    pub fn text(&self) -> String {
        self.content
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect()
    }

    /// The tool calls the model asked for (`tool_use` blocks), in order.
    pub fn tool_uses(&self) -> Vec<ToolUse> {
        self.content
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
            .filter_map(|b| serde_json::from_value(b.clone()).ok())
            .collect()
    }
}

impl From<CreateMessageResult> for ModelReply {
    fn from(r: CreateMessageResult) -> Self {
        let content = match r.content {
            // `content: null` is no content.
            SamplingContent::One(Value::Null) => Vec::new(),
            SamplingContent::One(block) => vec![block],
            SamplingContent::Many(blocks) => blocks,
        };
        ModelReply {
            content,
            model: r.model,
            stop_reason: r.stop_reason,
        }
    }
}

impl SampleAnswer for ModelReply {
    fn instruction() -> Option<String> {
        None
    }
    fn from_reply(reply: ModelReply) -> Result<Self, String> {
        Ok(reply)
    }
}

/// A tool call the model asked for (`ToolUseContent`).
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
pub struct ToolUse {
    /// Matches the `tool_result` that answers it.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments.
    pub input: crate::protocol::JsonObject,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
    struct Picks {
        best: Vec<String>,
    }

    fn reply(text: &str) -> ModelReply {
        ModelReply {
            content: vec![json!({"type": "text", "text": text})],
            model: "m".into(),
            stop_reason: None,
        }
    }

    #[test]
    fn text_answers_take_the_text_verbatim() {
        assert_eq!(String::instruction(), None);
        assert_eq!(String::from_reply(reply(" Paris ")).unwrap(), " Paris ");
    }

    #[test]
    fn json_answers_carry_the_schema_and_tolerate_fences() {
        let instruction = Picks::instruction().unwrap();
        assert!(instruction.contains("\"best\""), "{instruction}");
        let fenced = "Here you go:\n```json\n{\"best\": [\"a\"]}\n```\nEnjoy.";
        assert_eq!(
            Picks::from_reply(reply(fenced)).unwrap(),
            Picks {
                best: vec!["a".into()]
            }
        );
        assert_eq!(
            Picks::from_reply(reply("{\"best\": []}")).unwrap(),
            Picks { best: vec![] }
        );
        assert!(Picks::from_reply(reply("I would pick a.")).is_err());
    }

    #[test]
    fn a_reply_lists_its_tool_uses() {
        let r = ModelReply {
            content: vec![
                json!({"type": "text", "text": "Checking."}),
                json!({"type": "tool_use", "id": "t1", "name": "search", "input": {"q": "x"}}),
            ],
            model: "m".into(),
            stop_reason: Some("toolUse".into()),
        };
        assert_eq!(r.text(), "Checking.");
        let uses = r.tool_uses();
        assert_eq!(
            (uses[0].id.as_str(), uses[0].name.as_str()),
            ("t1", "search")
        );
    }
}
