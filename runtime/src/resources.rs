//! The traits behind `#[resource]`: one resource or template ([`ResourceHandler`]), a set of
//! them ([`ResourceSet`]), what a resource may return ([`IntoResourceResult`]), and the URI
//! templates that match them ([`UriTemplate`]).

use crate::cx::Cx;
use crate::identity::Scope;
use crate::protocol::{Error, ReadResourceResult, Resource, ResourceContents, ResourceTemplate};
use crate::sets::{ItemSet, SetEntry};
use crate::tools::BoxFuture;
use std::collections::BTreeMap;

/// A resource's listing: one URI, or an RFC 6570 level-1 template (`test://items/{id}`).
#[derive(Debug, Clone, PartialEq)]
pub enum ResourceDef {
    /// A fixed URI, listed by `resources/list`.
    Static(Resource),
    /// A URI template, listed by `resources/templates/list`.
    Template(ResourceTemplate),
}

impl crate::question::advertise::Listing for ResourceDef {
    fn meta_mut(&mut self) -> &mut Option<crate::protocol::JsonObject> {
        match self {
            ResourceDef::Static(r) => &mut r.meta,
            ResourceDef::Template(t) => &mut t.meta,
        }
    }
}

/// One resource or resource template, defined by a type (`#[resource("uri")]` implements it on
/// a hidden type named after the function, which `resources![..]` collects).
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
    /// The OAuth scopes `resources/read` needs on a protected HTTP endpoint (see
    /// [`ToolHandler::SCOPES`](crate::ToolHandler::SCOPES)); `#[resource(scopes = [..])]` sets
    /// it.
    const SCOPES: &'static [Scope] = &[];
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
    items: ItemSet<ResourceEntry>,
}

/// One resource of a [`ResourceSet`]: what [`ResourceHandler`] provides, as function pointers,
/// with its parsed URI template.
#[derive(Clone)]
struct ResourceEntry {
    template: UriTemplate,
    definition: fn() -> ResourceDef,
    read: ReadFn,
    scopes: &'static [Scope],
}

impl SetEntry for ResourceEntry {
    const KEY: &'static str = "resource URI";
    fn key(&self) -> &str {
        &self.template.raw
    }
}

impl std::fmt::Debug for ResourceSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.items.fmt(f)
    }
}

impl ResourceSet {
    /// An empty set.
    pub fn new() -> Self {
        ResourceSet::default()
    }
    /// Adds the resource `R`.
    pub fn with<R: ResourceHandler>(mut self) -> Self {
        self.items.push(ResourceEntry {
            template: UriTemplate::parse(R::URI),
            definition: R::definition,
            read: R::read,
            scopes: R::SCOPES,
        });
        self
    }
    /// Adds the resources of `other`.
    ///
    /// # Panics
    /// When a URI (or URI template) is already taken.
    pub(crate) fn merge(&mut self, other: ResourceSet) {
        self.items.merge(other.items);
    }
    /// Whether the set is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    /// The first URI (or URI template) of `other` already taken here (or twice in `other`).
    pub(crate) fn clash<'o>(&self, other: &'o ResourceSet) -> Option<&'o str> {
        self.items.clash(&other.items)
    }
    /// Removes the resource whose URI (or URI template) is `uri`, as declared; whether there
    /// was one.
    pub(crate) fn remove(&mut self, uri: &str) -> bool {
        self.items.remove(uri)
    }
    /// The listings, in the order the resources were added.
    pub(crate) fn definitions(&self) -> impl Iterator<Item = (ResourceDef, &'static [Scope])> + '_ {
        self.items.entries().map(|e| ((e.definition)(), e.scopes))
    }
    /// The entry that serves `uri` (fixed URIs before templates), with the variables it
    /// matched.
    fn serving(&self, uri: &str) -> Option<(&ResourceEntry, BTreeMap<String, String>)> {
        let fixed = self.items.entries().filter(|e| e.template.is_fixed());
        let templated = self.items.entries().filter(|e| !e.template.is_fixed());
        fixed
            .chain(templated)
            .find_map(|e| e.template.matches(uri).map(|vars| (e, vars)))
    }
    /// Reads `uri` from the first entry that matches it (fixed URIs before templates).
    pub(crate) fn read<'a>(
        &self,
        cx: &'a Cx,
        uri: &'a str,
    ) -> Option<BoxFuture<'a, Result<ReadResourceResult, Error>>> {
        self.serving(uri).map(|(e, vars)| (e.read)(cx, uri, vars))
    }
    /// The scopes of the entry that serves `uri` (none when no entry does).
    pub(crate) fn scopes(&self, uri: &str) -> &'static [Scope] {
        self.serving(uri).map_or(&[], |(e, _)| e.scopes)
    }
    /// Every declared scope of the set, in order.
    pub(crate) fn all_scopes(&self) -> impl Iterator<Item = &Scope> + '_ {
        self.items.entries().flat_map(|e| e.scopes)
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
