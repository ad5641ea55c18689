//! The traits behind `#[prompt]`: one prompt ([`PromptHandler`]), a set of prompts
//! ([`PromptSet`]), and what a prompt may return ([`IntoPromptResult`]).

use crate::cx::Cx;
use crate::identity::Scope;
use crate::protocol::{Content, Error, GetPromptResult, JsonObject, Prompt, PromptMessage};
use crate::sets::{ItemSet, SetEntry};
use crate::tools::BoxFuture;

/// One prompt, defined by a type (`#[prompt]` implements it on a hidden type named after the
/// function, which `prompts![..]` collects).
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
    /// The OAuth scopes `prompts/get` needs on a protected HTTP endpoint (see
    /// [`ToolHandler::SCOPES`](crate::ToolHandler::SCOPES)); `#[prompt(scopes = [..])]` sets it.
    const SCOPES: &'static [Scope] = &[];
    /// Renders the prompt.
    fn get<'a>(
        cx: &'a Cx,
        arguments: &'a JsonObject,
    ) -> BoxFuture<'a, Result<GetPromptResult, Error>>;
}

type GetFn = for<'a> fn(&'a Cx, &'a JsonObject) -> BoxFuture<'a, Result<GetPromptResult, Error>>;

/// Prompts, built by `prompts![a, b]` or [`PromptSet::with`].
#[derive(Clone, Default)]
pub struct PromptSet {
    items: ItemSet<PromptEntry>,
}

/// One prompt of a [`PromptSet`]: what [`PromptHandler`] provides, as function pointers.
#[derive(Clone, Copy)]
struct PromptEntry {
    name: &'static str,
    definition: fn() -> Prompt,
    get: GetFn,
    scopes: &'static [Scope],
}

impl SetEntry for PromptEntry {
    const KEY: &'static str = "prompt name";
    fn key(&self) -> &str {
        self.name
    }
}

impl std::fmt::Debug for PromptSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.items.fmt(f)
    }
}

impl PromptSet {
    /// An empty set.
    pub fn new() -> Self {
        PromptSet::default()
    }
    /// Adds the prompt `P`.
    pub fn with<P: PromptHandler>(mut self) -> Self {
        self.items.push(PromptEntry {
            name: P::NAME,
            definition: P::definition,
            get: P::get,
            scopes: P::SCOPES,
        });
        self
    }
    /// Adds the prompts of `other`.
    ///
    /// # Panics
    /// When a name is already taken.
    pub(crate) fn merge(&mut self, other: PromptSet) {
        self.items.merge(other.items);
    }
    /// Whether the set is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    /// The first name of `other` already taken here (or twice in `other`).
    pub(crate) fn clash<'o>(&self, other: &'o PromptSet) -> Option<&'o str> {
        self.items.clash(&other.items)
    }
    /// Removes the prompt `name`; whether there was one.
    pub(crate) fn remove(&mut self, name: &str) -> bool {
        self.items.remove(name)
    }
    /// The definitions, in the order the prompts were added.
    pub(crate) fn list(&self) -> Vec<Prompt> {
        self.items.entries().map(|e| (e.definition)()).collect()
    }
    /// The scopes of the prompt `name` (none for an unknown one).
    pub(crate) fn scopes(&self, name: &str) -> &'static [Scope] {
        self.items.find(name).map_or(&[], |e| e.scopes)
    }
    /// Every declared scope of the set, in order.
    pub(crate) fn all_scopes(&self) -> impl Iterator<Item = &Scope> + '_ {
        self.items.entries().flat_map(|e| e.scopes)
    }
    /// Renders the prompt `name`; `None` when the set has no such prompt.
    pub(crate) fn get<'a>(
        &self,
        cx: &'a Cx,
        name: &str,
        args: &'a JsonObject,
    ) -> Option<BoxFuture<'a, Result<GetPromptResult, Error>>> {
        self.items.find(name).map(|e| (e.get)(cx, args))
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
