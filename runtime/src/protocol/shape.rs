//! Each wire type as a session's revision has it (design §7, the table of revisions).
//!
//! A handler builds its results once, in the newest shape. Before a result, a listed item or
//! the server's `initialize` answer goes to a session of an older revision, [`Shape::shape`]
//! removes what that revision does not define: a field is left out, and a content block the
//! revision has no type for becomes a text block saying what it was (an audio clip before
//! 2025-03-26, a resource link before 2025-06-18), so the model still reads that something
//! was there and a client's union of content types never meets a type it cannot parse. What
//! a client declared is read with its revision's meaning by
//! [`ClientCapabilities::read_at`].
//!
//! Shaping works in place on the typed values, before they are written: nothing is parsed
//! again, and a 2025-11-25 or 2026-07-28 value passes through untouched but for the two rules
//! that were already theirs (an object `structuredContent` and `outputSchema` before
//! 2026-07-28).

use super::{
    Annotations, CallToolResult, ClientCapabilities, Content, ElicitRequest, ElicitationCapability,
    GetPromptResult, Implementation, InputRequest, JsonObject, Prompt, ReadResourceResult,
    Resource, ResourceContents, ResourceTemplate, Revision, SamplingContent, ServerCapabilities,
    Tool,
};
use serde_json::Value;

/// A wire value that a session of an older revision receives without the fields, content
/// types and capabilities that revision does not define.
pub(crate) trait Shape {
    /// Removes (or rewrites) what `revision` does not define.
    fn shape(&mut self, revision: Revision);
}

impl<T: Shape> Shape for Option<T> {
    fn shape(&mut self, revision: Revision) {
        if let Some(t) = self {
            t.shape(revision);
        }
    }
}

impl<T: Shape> Shape for Vec<T> {
    fn shape(&mut self, revision: Revision) {
        for t in self {
            t.shape(revision);
        }
    }
}

/// `None` unless `keep`.
fn keep_if<T>(field: &mut Option<T>, keep: bool) {
    if !keep {
        *field = None;
    }
}

impl Shape for Implementation {
    fn shape(&mut self, r: Revision) {
        keep_if(&mut self.title, r.has_elicitation_and_structure());
        keep_if(&mut self.description, r.has_url_elicitation_and_icons());
        keep_if(&mut self.website_url, r.has_url_elicitation_and_icons());
    }
}

impl Shape for ServerCapabilities {
    fn shape(&mut self, r: Revision) {
        keep_if(&mut self.completions, r.has_annotations_and_audio());
        if !r.is_modern() {
            // The handshake revisions have no `extensions`; 2025-11-25 sessions are told of
            // the Skills extension, which defines itself over that revision too.
            self.extensions = match r.has_url_elicitation_and_icons() {
                true => super::legacy_extensions(self.extensions.take()),
                false => None,
            };
        }
    }
}

impl Shape for Annotations {
    fn shape(&mut self, r: Revision) {
        keep_if(&mut self.last_modified, r.has_elicitation_and_structure());
    }
}

impl Shape for Tool {
    fn shape(&mut self, r: Revision) {
        keep_if(&mut self.annotations, r.has_annotations_and_audio());
        let structure = r.has_elicitation_and_structure();
        keep_if(&mut self.title, structure);
        keep_if(&mut self.meta, structure);
        keep_if(&mut self.icons, r.has_url_elicitation_and_icons());
        // Before 2026-07-28 an `outputSchema` has an object root; another is left out, and
        // the tool's results go out as content only.
        let object_root = |s: &JsonObject| s.get("type") == Some(&Value::from("object"));
        if !structure || (!r.is_modern() && !self.output_schema.as_ref().is_some_and(object_root)) {
            self.output_schema = None;
        }
    }
}

impl Shape for Prompt {
    fn shape(&mut self, r: Revision) {
        let structure = r.has_elicitation_and_structure();
        keep_if(&mut self.title, structure);
        keep_if(&mut self.meta, structure);
        if !structure {
            for a in self.arguments.iter_mut().flatten() {
                a.title = None;
            }
        }
    }
}

impl Shape for Resource {
    fn shape(&mut self, r: Revision) {
        let structure = r.has_elicitation_and_structure();
        keep_if(&mut self.title, structure);
        keep_if(&mut self.meta, structure);
        keep_if(&mut self.icons, r.has_url_elicitation_and_icons());
        self.annotations.shape(r);
    }
}

impl Shape for ResourceTemplate {
    fn shape(&mut self, r: Revision) {
        let structure = r.has_elicitation_and_structure();
        keep_if(&mut self.title, structure);
        keep_if(&mut self.meta, structure);
        self.annotations.shape(r);
    }
}

/// The Skills extension defines its entries the same over every base revision.
impl Shape for super::Skill {
    fn shape(&mut self, _: Revision) {}
}

impl Shape for ResourceContents {
    fn shape(&mut self, r: Revision) {
        keep_if(&mut self.meta, r.has_elicitation_and_structure());
    }
}

impl Shape for Content {
    fn shape(&mut self, r: Revision) {
        match self {
            Content::Audio { mime_type, .. } if !r.has_annotations_and_audio() => {
                *self = Content::text(format!(
                    "[An audio clip ({mime_type}) was left out: this client's protocol \
                     revision, {r}, has no audio content.]"
                ));
            }
            Content::ResourceLink(link) if !r.has_elicitation_and_structure() => {
                *self = Content::text(link_text(link));
            }
            Content::Text { annotations, .. }
            | Content::Image { annotations, .. }
            | Content::Audio { annotations, .. } => annotations.shape(r),
            Content::ResourceLink(link) => link.shape(r),
            Content::Resource {
                resource,
                annotations,
            } => {
                resource.shape(r);
                annotations.shape(r);
            }
        }
    }
}

/// A resource link as text, for a revision without resource links: what the model needs to
/// read it with `resources/read`.
fn link_text(link: &Resource) -> String {
    let mut text = format!("Resource `{}`: {}", link.name, link.uri);
    if let Some(mime) = &link.mime_type {
        text.push_str(&format!(" ({mime})"));
    }
    if let Some(d) = &link.description {
        text.push_str(&format!("\n{d}"));
    }
    text
}

impl Shape for CallToolResult {
    fn shape(&mut self, r: Revision) {
        self.content.shape(r);
        // Before 2026-07-28 `structuredContent` is an object; another goes out as content
        // only, as it does before 2025-06-18, which has none.
        if !r.has_elicitation_and_structure()
            || (!r.is_modern()
                && self
                    .structured_content
                    .as_ref()
                    .is_some_and(|v| !v.is_object()))
        {
            self.structured_content = None;
        }
    }
}

impl Shape for GetPromptResult {
    fn shape(&mut self, r: Revision) {
        for m in &mut self.messages {
            m.content.shape(r);
        }
    }
}

impl Shape for ReadResourceResult {
    fn shape(&mut self, r: Revision) {
        self.contents.shape(r);
    }
}

impl ClientCapabilities {
    /// What the client declared, read with the meaning `revision` gives it: before
    /// 2025-06-18 there is no elicitation; in 2025-06-18 any `elicitation` object is form
    /// elicitation (there is no URL mode); before 2025-11-25 there is no sampling with tools,
    /// no sampling `context` and no `tasks`. A capability a revision does not have is not
    /// read from a client of it, whatever it sent.
    pub(crate) fn read_at(mut self, revision: Revision) -> ClientCapabilities {
        if revision.is_modern() || revision.has_url_elicitation_and_icons() {
            return self;
        }
        self.elicitation = match self.elicitation {
            Some(_) if revision.has_elicitation_and_structure() => Some(ElicitationCapability {
                form: Some(JsonObject::new()),
                url: None,
            }),
            _ => None,
        };
        if let Some(s) = &mut self.sampling {
            s.tools = None;
            s.context = None;
        }
        self.tasks = None;
        self.extensions = None;
        self
    }
}

impl InputRequest {
    /// The request as a client of `revision` reads it, or what in it that revision cannot
    /// carry (the question then takes its fallback, as for a capability the client lacks).
    /// 2025-11-25 and 2026-07-28 take every request as rendered. Before them: a form's
    /// `oneOf` of titled options becomes 2025-06-18's `enum` + `enumNames`, and a `default`
    /// on anything but a boolean is left out; a multiple-choice field, URL mode, sampling
    /// with tools or several content blocks in one sampling message cannot be carried, and
    /// neither can audio in a sampling message before 2025-03-26.
    pub(crate) fn at(self, r: Revision) -> Result<InputRequest, String> {
        if r.has_url_elicitation_and_icons() {
            return Ok(self);
        }
        match self {
            InputRequest::Elicit(ElicitRequest::Form {
                message,
                mut requested_schema,
            }) if r.has_elicitation_and_structure() => {
                form_at_2025_06_18(&mut requested_schema)?;
                Ok(InputRequest::Elicit(ElicitRequest::Form {
                    message,
                    requested_schema,
                }))
            }
            InputRequest::Elicit(ElicitRequest::Form { .. }) => Err("form elicitation".into()),
            InputRequest::Elicit(ElicitRequest::Url { .. }) => Err("URL-mode elicitation".into()),
            InputRequest::Sample(mut s) => {
                if s.tools.is_some() || s.tool_choice.is_some() {
                    return Err("sampling with tools".into());
                }
                for m in &mut s.messages {
                    sampling_content_at(&mut m.content, r)?;
                }
                Ok(InputRequest::Sample(s))
            }
            other => Ok(other),
        }
    }

    /// The params object as a client of `revision` reads it: a form request has no `mode`
    /// before 2025-11-25 (the only mode there is).
    pub(crate) fn params_at(&self, r: Revision) -> Option<Value> {
        let mut params = self.params();
        if !r.has_url_elicitation_and_icons()
            && let Some(Value::Object(p)) = &mut params
        {
            p.remove("mode");
        }
        params
    }
}

/// The fields of a 2025-06-18 form: `type`, `title`, `description` and a kind's own keywords
/// (string: `minLength`, `maxLength`, `format`; number: `minimum`, `maximum`; boolean:
/// `default`; enum: `enum`, `enumNames`).
fn form_at_2025_06_18(schema: &mut JsonObject) -> Result<(), String> {
    let Some(Value::Object(properties)) = schema.get_mut("properties") else {
        return Ok(());
    };
    for (name, field) in properties.iter_mut() {
        let Value::Object(field) = field else {
            continue;
        };
        if field.get("type") == Some(&Value::from("array")) {
            return Err(format!(
                "the multiple-choice form field `{name}` (2025-06-18 forms have single choices only)"
            ));
        }
        if field.get("type") != Some(&Value::from("boolean")) {
            field.remove("default");
        }
        if let Some(Value::Array(options)) = field.remove("oneOf") {
            let (values, names): (Vec<Value>, Vec<Value>) = options
                .iter()
                .map(|o| {
                    let value = o.get("const").cloned().unwrap_or(Value::Null);
                    let name = o.get("title").cloned().unwrap_or_else(|| value.clone());
                    (value, name)
                })
                .unzip();
            field.insert("enum".into(), Value::Array(values));
            field.insert("enumNames".into(), Value::Array(names));
        }
    }
    Ok(())
}

/// One sampling message's content before 2025-11-25: a single text, image or (from
/// 2025-03-26) audio block.
fn sampling_content_at(content: &mut SamplingContent, r: Revision) -> Result<(), String> {
    if let SamplingContent::Many(blocks) = content {
        match blocks.len() {
            1 => *content = SamplingContent::One(blocks.remove(0)),
            n => return Err(format!("a sampling message of {n} content blocks")),
        }
    }
    let SamplingContent::One(block) = content else {
        return Ok(());
    };
    match block.get("type").and_then(Value::as_str) {
        Some("text" | "image") => Ok(()),
        Some("audio") if r.has_annotations_and_audio() => Ok(()),
        Some(other) => Err(format!("`{other}` content in a sampling message")),
        None => Err("a sampling content block without a type".into()),
    }
}

#[cfg(test)]
mod tests;
