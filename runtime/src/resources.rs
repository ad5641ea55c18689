//! The traits behind `#[prompt]` and `#[resource]`, and their sets.

use crate::cx::Cx;
use crate::protocol::{
    Content, Error, GetPromptResult, JsonObject, Prompt, PromptMessage, ReadResourceResult,
    Resource, ResourceContents, ResourceTemplate,
};
use crate::tools::BoxFuture;
use std::collections::BTreeMap;

/// One prompt, defined by a type (`#[prompt]` implements it on a hidden type named after the
/// function).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a prompt",
    label = "not a `#[prompt]` function",
    note = "add `#[rondo_mcp::prompt]` to the function, or implement `rondo_mcp::PromptHandler` for the type"
)]
pub trait PromptHandler: 'static {
    /// The prompt's name.
    const NAME: &'static str;
    /// The definition listed by `prompts/list`.
    fn definition() -> Prompt;
    /// Renders the prompt.
    fn get<'a>(cx: &'a Cx, arguments: JsonObject) -> BoxFuture<'a, Result<GetPromptResult, Error>>;
}

type GetFn = for<'a> fn(&'a Cx, JsonObject) -> BoxFuture<'a, Result<GetPromptResult, Error>>;

/// Prompts, built by `prompts![a, b]` or [`PromptSet::with`].
#[derive(Clone, Default)]
pub struct PromptSet {
    entries: Vec<PromptEntry>,
}

/// One prompt of a [`PromptSet`].
#[derive(Clone, Copy)]
struct PromptEntry {
    name: &'static str,
    definition: fn() -> Prompt,
    get: GetFn,
}

impl std::fmt::Debug for PromptSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(|e| e.name))
            .finish()
    }
}

impl PromptSet {
    /// An empty set.
    pub fn new() -> Self {
        PromptSet::default()
    }
    /// Adds the prompt `P`.
    pub fn with<P: PromptHandler>(mut self) -> Self {
        self.entries.push(PromptEntry {
            name: P::NAME,
            definition: P::definition,
            get: P::get,
        });
        self
    }
    pub(crate) fn list(&self) -> Vec<Prompt> {
        self.entries.iter().map(|e| (e.definition)()).collect()
    }
    pub(crate) fn get<'a>(
        &self,
        cx: &'a Cx,
        name: &str,
        args: JsonObject,
    ) -> Option<BoxFuture<'a, Result<GetPromptResult, Error>>> {
        self.entries
            .iter()
            .find(|e| e.name == name)
            .map(|e| (e.get)(cx, args))
    }
    pub(crate) fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.entries.iter().map(|e| e.name)
    }
    pub(crate) fn merge(mut self, other: PromptSet) -> Self {
        self.entries.extend(other.entries);
        self
    }
}

/// What a `#[prompt]` function may return.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a `#[prompt]` function",
    note = "return `String` (one user message), `PromptMessage`, `Vec<PromptMessage>`, `GetPromptResult`, or a `Result<_, rondo_mcp::Error>` of one of them"
)]
pub trait IntoPromptResult {
    /// Converts into the result sent to the client.
    fn into_prompt_result(self) -> Result<GetPromptResult, Error>;
}

impl IntoPromptResult for GetPromptResult {
    fn into_prompt_result(self) -> Result<GetPromptResult, Error> {
        Ok(self)
    }
}
impl IntoPromptResult for Vec<PromptMessage> {
    fn into_prompt_result(self) -> Result<GetPromptResult, Error> {
        Ok(GetPromptResult {
            description: None,
            messages: self,
        })
    }
}
impl IntoPromptResult for PromptMessage {
    fn into_prompt_result(self) -> Result<GetPromptResult, Error> {
        vec![self].into_prompt_result()
    }
}
impl IntoPromptResult for String {
    fn into_prompt_result(self) -> Result<GetPromptResult, Error> {
        PromptMessage::user(Content::text(self)).into_prompt_result()
    }
}
impl<T: IntoPromptResult> IntoPromptResult for Result<T, Error> {
    fn into_prompt_result(self) -> Result<GetPromptResult, Error> {
        self.and_then(T::into_prompt_result)
    }
}

/// A resource's listing: one URI, or an RFC 6570 level-1 template (`test://items/{id}`).
#[derive(Debug, Clone, PartialEq)]
pub enum ResourceDef {
    /// A fixed URI, listed by `resources/list`.
    Static(Resource),
    /// A URI template, listed by `resources/templates/list`.
    Template(ResourceTemplate),
}

/// One resource or resource template, defined by a type (`#[resource("uri")]`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a resource",
    label = "not a `#[resource]` function",
    note = "add `#[rondo_mcp::resource(\"uri\")]` to the function, or implement `rondo_mcp::ResourceHandler` for the type"
)]
pub trait ResourceHandler: 'static {
    /// The URI or URI template.
    const URI: &'static str;
    /// The listing.
    fn definition() -> ResourceDef;
    /// Reads the resource at `uri`; `vars` holds the template variables it matched.
    fn read<'a>(
        cx: &'a Cx,
        uri: &'a str,
        vars: BTreeMap<String, String>,
    ) -> BoxFuture<'a, Result<ReadResourceResult, Error>>;
}

type ReadFn = for<'a> fn(
    &'a Cx,
    &'a str,
    BTreeMap<String, String>,
) -> BoxFuture<'a, Result<ReadResourceResult, Error>>;

/// Resources, built by `resources![a, b]` or [`ResourceSet::with`].
#[derive(Clone, Default)]
pub struct ResourceSet {
    entries: Vec<ResourceEntry>,
}

/// One resource of a [`ResourceSet`].
#[derive(Clone)]
struct ResourceEntry {
    template: UriTemplate,
    definition: fn() -> ResourceDef,
    read: ReadFn,
}

impl std::fmt::Debug for ResourceSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(|e| &e.template.raw))
            .finish()
    }
}

impl ResourceSet {
    /// An empty set.
    pub fn new() -> Self {
        ResourceSet::default()
    }
    /// Adds the resource `R`.
    pub fn with<R: ResourceHandler>(mut self) -> Self {
        self.entries.push(ResourceEntry {
            template: UriTemplate::parse(R::URI),
            definition: R::definition,
            read: R::read,
        });
        self
    }
    pub(crate) fn merge(mut self, other: ResourceSet) -> Self {
        for e in other.entries {
            assert!(
                !self.entries.iter().any(|o| o.template == e.template),
                "duplicate resource URI `{}`",
                e.template.raw
            );
            self.entries.push(e);
        }
        self
    }
    pub(crate) fn definitions(&self) -> impl Iterator<Item = ResourceDef> + '_ {
        self.entries.iter().map(|e| (e.definition)())
    }
    /// Reads `uri` from the first entry that matches it (fixed URIs before templates).
    pub(crate) fn read<'a>(
        &self,
        cx: &'a Cx,
        uri: &'a str,
    ) -> Option<BoxFuture<'a, Result<ReadResourceResult, Error>>> {
        let fixed = self.entries.iter().filter(|e| e.template.is_fixed());
        let templated = self.entries.iter().filter(|e| !e.template.is_fixed());
        fixed
            .chain(templated)
            .find_map(|e| e.template.matches(uri).map(|vars| (e.read)(cx, uri, vars)))
    }
}

/// What a `#[resource]` function may return.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a `#[resource]` function",
    note = "return `ResourceContents`, `Vec<ResourceContents>`, `ReadResourceResult`, or a `Result<_, rondo_mcp::Error>` of one of them"
)]
pub trait IntoResourceResult {
    /// Converts into the result sent to the client.
    fn into_resource_result(self) -> Result<ReadResourceResult, Error>;
}

impl IntoResourceResult for ReadResourceResult {
    fn into_resource_result(self) -> Result<ReadResourceResult, Error> {
        Ok(self)
    }
}
impl IntoResourceResult for ResourceContents {
    fn into_resource_result(self) -> Result<ReadResourceResult, Error> {
        Ok(ReadResourceResult {
            contents: vec![self],
        })
    }
}
impl IntoResourceResult for Vec<ResourceContents> {
    fn into_resource_result(self) -> Result<ReadResourceResult, Error> {
        Ok(ReadResourceResult { contents: self })
    }
}
impl<T: IntoResourceResult> IntoResourceResult for Result<T, Error> {
    fn into_resource_result(self) -> Result<ReadResourceResult, Error> {
        self.and_then(T::into_resource_result)
    }
}

/// An RFC 6570 level-1 URI template: literal text and `{name}` variables, each matching one or
/// more characters other than `/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriTemplate {
    raw: String,
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Lit(String),
    Var(String),
}

impl UriTemplate {
    /// Parses a template; text without `{...}` is a fixed URI.
    pub fn parse(raw: &str) -> Self {
        let mut parts = Vec::new();
        let mut rest = raw;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}').map(|c| open + c) else {
                break;
            };
            if open > 0 {
                parts.push(Part::Lit(rest[..open].to_owned()));
            }
            parts.push(Part::Var(rest[open + 1..close].to_owned()));
            rest = &rest[close + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Lit(rest.to_owned()));
        }
        UriTemplate {
            raw: raw.to_owned(),
            parts,
        }
    }

    /// The variable names, in order.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|p| match p {
            Part::Var(v) => Some(v.as_str()),
            Part::Lit(_) => None,
        })
    }

    /// Whether the template has no variables.
    pub fn is_fixed(&self) -> bool {
        self.variables().next().is_none()
    }

    /// Matches `uri`, returning the variables' values.
    pub fn matches(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        let mut vars = BTreeMap::new();
        let mut rest = uri;
        for (i, part) in self.parts.iter().enumerate() {
            match part {
                Part::Lit(l) => rest = rest.strip_prefix(l.as_str())?,
                Part::Var(name) => {
                    let end = match self.parts.get(i + 1) {
                        Some(Part::Lit(next)) => rest.find(next.as_str())?,
                        _ => rest.len(),
                    };
                    let value = &rest[..end];
                    if value.is_empty() || value.contains('/') {
                        return None;
                    }
                    vars.insert(name.clone(), value.to_owned());
                    rest = &rest[end..];
                }
            }
        }
        rest.is_empty().then_some(vars)
    }
}

#[cfg(test)]
mod tests {
    use super::UriTemplate;

    #[test]
    fn templates_match_one_segment_per_variable() {
        let t = UriTemplate::parse("test://template/{id}/data");
        assert_eq!(t.matches("test://template/123/data").unwrap()["id"], "123");
        assert!(t.matches("test://template/1/2/data").is_none());
        assert!(t.matches("test://template//data").is_none());
        assert!(t.matches("test://template/1/datax").is_none());
        let fixed = UriTemplate::parse("test://static-text");
        assert!(fixed.is_fixed() && fixed.matches("test://static-text").is_some());
    }
}
