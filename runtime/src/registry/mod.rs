//! [`Registry`]: the handle that adds and removes a [`Router`](crate::Router)'s tools, prompts
//! and resources while it serves, and announces each change.
//!
//! A router never given a registry keeps its [`Catalog`] in place and reads it directly. One
//! that handed out a registry shares the catalog behind an [`ArcSwap`]: a request reads the
//! catalog current when it starts, and a change copies it, edits the copy and swaps it in whole,
//! so a list is never seen half changed and a call already running keeps what it started with.

mod catalog;
mod error;

pub(crate) use catalog::{Catalog, unknown_prompt};
pub use error::{ItemKind, RegistryError};

use crate::cx::Cx;
use crate::notify::Notifier;
use crate::prompts::PromptSet;
use crate::protocol::{CallToolResult, Error, GetPromptResult, JsonObject, ReadResourceResult};
use crate::resources::ResourceSet;
use crate::sync::lock;
use crate::tools::{BoxFuture, ToolBox};
use arc_swap::ArcSwap;
use std::fmt;
use std::sync::{Arc, Mutex};

/// Adds and removes a router's tools, prompts, resources and resource templates while the
/// server serves, and announces each change to the clients that listen
/// (`notifications/tools/list_changed` and the others). [`Router::registry`](crate::Router::registry)
/// hands it out; clones share the one router. The [guide](crate::guide::changing) shows it at
/// work.
///
/// What is added comes from the same items as a router built at once: `tools![..]`,
/// `#[rondo_mcp::toolbox]` values, `prompts![..]`, `resources![..]`. A name already served is
/// [`RegistryError::Taken`], never replaced in silence; removing one that is not served is
/// [`RegistryError::Unknown`]. Each method is one change; [`Registry::apply`] makes several at
/// once.
///
/// ```
/// use rondo_mcp::prelude::*;
/// use rondo_mcp::{Registry, RegistryError};
///
/// /// Searches the catalogue.
/// #[rondo_mcp::tool]
/// async fn search(query: String) -> String {
///     format!("no match for {query}")
/// }
///
/// let mut router = Router::new(ServerInfo::new("shop", "1.0.0"));
/// let registry: Registry = router.registry();
/// let server = Server::new(router);
/// registry.add_tools(rondo_mcp::tools![search])?;
/// assert!(matches!(
///     registry.add_tools(rondo_mcp::tools![search]),
///     Err(RegistryError::Taken { .. })
/// ));
/// registry.remove_tool("search")?;
/// # let _ = server;
/// # Ok::<(), RegistryError>(())
/// ```
#[derive(Clone)]
pub struct Registry {
    live: Arc<Live>,
}

struct Live {
    /// What the router serves now.
    catalog: ArcSwap<Catalog>,
    /// Held while a change is made, so changes apply one after another, each to the last.
    writer: Mutex<()>,
    /// The server's change hub ([`Handler::notifier`](crate::Handler::notifier)).
    hub: Notifier,
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Registry")
            .field(&*self.live.catalog.load())
            .finish()
    }
}

/// Several changes made as one: checked together (all or none), seen together by every request
/// after it, and announced once per list it changed. Build it with its methods, in order, and
/// give it to [`Registry::apply`].
///
/// ```
/// # use rondo_mcp::prelude::*;
/// # use rondo_mcp::Edit;
/// # /// v2.
/// # #[rondo_mcp::tool(name = "search")]
/// # async fn search_v2() -> String { String::new() }
/// # fn swap(registry: &rondo_mcp::Registry) -> Result<(), rondo_mcp::RegistryError> {
/// // `search` replaced: no request sees both, or neither.
/// registry.apply(Edit::new().remove_tool("search").add_tools(rondo_mcp::tools![search_v2]))
/// # }
/// ```
#[derive(Default)]
#[must_use = "an edit does nothing until `Registry::apply` makes it"]
pub struct Edit {
    steps: Vec<Step>,
}

enum Step {
    AddTools(Arc<dyn ToolBox>),
    RemoveTool(String),
    AddPrompts(PromptSet),
    RemovePrompt(String),
    AddResources(ResourceSet),
    RemoveResource(String),
}

impl fmt::Debug for Edit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Edit")
            .field("steps", &self.steps.len())
            .finish()
    }
}

impl Edit {
    /// An edit that changes nothing yet.
    pub fn new() -> Edit {
        Edit::default()
    }
    /// Adds a set of tools: `tools![a, b]`, or a value whose `impl` has
    /// `#[rondo_mcp::toolbox]`.
    pub fn add_tools(self, tools: impl ToolBox) -> Edit {
        self.then(Step::AddTools(Arc::new(tools)))
    }
    /// Removes the tool `name` (one tool of a toolbox leaves; its others stay).
    pub fn remove_tool(self, name: impl Into<String>) -> Edit {
        self.then(Step::RemoveTool(name.into()))
    }
    /// Adds prompts: `prompts![a, b]`.
    pub fn add_prompts(self, prompts: PromptSet) -> Edit {
        self.then(Step::AddPrompts(prompts))
    }
    /// Removes the prompt `name`.
    pub fn remove_prompt(self, name: impl Into<String>) -> Edit {
        self.then(Step::RemovePrompt(name.into()))
    }
    /// Adds resources and resource templates: `resources![a, b]`.
    pub fn add_resources(self, resources: ResourceSet) -> Edit {
        self.then(Step::AddResources(resources))
    }
    /// Removes the resource, or the resource template, declared with `uri` (a template by its
    /// template text, `file:///logs/{day}`).
    pub fn remove_resource(self, uri: impl Into<String>) -> Edit {
        self.then(Step::RemoveResource(uri.into()))
    }

    fn then(mut self, step: Step) -> Edit {
        self.steps.push(step);
        self
    }
}

/// Which lists an edit changed.
#[derive(Default)]
struct Changed {
    tools: bool,
    prompts: bool,
    resources: bool,
}

impl Step {
    fn make(self, catalog: &mut Catalog, changed: &mut Changed) -> Result<(), RegistryError> {
        match self {
            Step::AddTools(set) => changed.tools |= catalog.add_tools(set, false)? > 0,
            Step::RemoveTool(name) => {
                catalog.remove_tool(&name)?;
                changed.tools = true;
            }
            Step::AddPrompts(set) => {
                changed.prompts |= !set.is_empty();
                catalog.add_prompts(set)?;
            }
            Step::RemovePrompt(name) => {
                catalog.remove_prompt(&name)?;
                changed.prompts = true;
            }
            Step::AddResources(set) => {
                changed.resources |= !set.is_empty();
                catalog.add_resources(set)?;
            }
            Step::RemoveResource(uri) => {
                catalog.remove_resource(&uri)?;
                changed.resources = true;
            }
        }
        Ok(())
    }
}

/// The changes, each one [`Edit`].
impl Registry {
    /// Makes the changes of `edit`, all or none, then announces each list it changed. A request
    /// that starts after this returns sees them all; one already running keeps what it had
    /// (a tool call already running finishes, even if its tool was removed).
    pub fn apply(&self, edit: Edit) -> Result<(), RegistryError> {
        let writer = lock(&self.live.writer);
        let mut next = Catalog::clone(&self.live.catalog.load());
        let mut changed = Changed::default();
        for step in edit.steps {
            step.make(&mut next, &mut changed)?;
        }
        if changed.tools || changed.prompts || changed.resources {
            self.live.catalog.store(Arc::new(next));
        }
        drop(writer);
        // After the swap: a client that lists when it hears of the change sees it.
        let hub = &self.live.hub;
        if changed.tools {
            hub.tools_list_changed();
        }
        if changed.prompts {
            hub.prompts_list_changed();
        }
        if changed.resources {
            hub.resources_list_changed();
        }
        Ok(())
    }
    /// Adds a set of tools ([`Edit::add_tools`]).
    pub fn add_tools(&self, tools: impl ToolBox) -> Result<(), RegistryError> {
        self.apply(Edit::new().add_tools(tools))
    }
    /// Removes the tool `name` ([`Edit::remove_tool`]).
    pub fn remove_tool(&self, name: &str) -> Result<(), RegistryError> {
        self.apply(Edit::new().remove_tool(name))
    }
    /// Adds prompts ([`Edit::add_prompts`]).
    pub fn add_prompts(&self, prompts: PromptSet) -> Result<(), RegistryError> {
        self.apply(Edit::new().add_prompts(prompts))
    }
    /// Removes the prompt `name` ([`Edit::remove_prompt`]).
    pub fn remove_prompt(&self, name: &str) -> Result<(), RegistryError> {
        self.apply(Edit::new().remove_prompt(name))
    }
    /// Adds resources and resource templates ([`Edit::add_resources`]).
    pub fn add_resources(&self, resources: ResourceSet) -> Result<(), RegistryError> {
        self.apply(Edit::new().add_resources(resources))
    }
    /// Removes a resource or resource template ([`Edit::remove_resource`]).
    pub fn remove_resource(&self, uri: &str) -> Result<(), RegistryError> {
        self.apply(Edit::new().remove_resource(uri))
    }
    /// The names of the tools served now, in the order `tools/list` lists them.
    pub fn tool_names(&self) -> Vec<String> {
        let catalog = self.live.catalog.load();
        catalog.tool_names().map(str::to_owned).collect()
    }
}

/// What the router reads.
impl Registry {
    /// A registry serving `catalog`, announcing on a hub of its own (the server adopts it).
    pub(crate) fn new(catalog: Catalog) -> Registry {
        Registry {
            live: Arc::new(Live {
                catalog: ArcSwap::from_pointee(catalog),
                writer: Mutex::new(()),
                hub: Notifier::default(),
            }),
        }
    }

    /// The hub this registry announces on.
    pub(crate) fn notifier(&self) -> &Notifier {
        &self.live.hub
    }

    /// The catalog now, for a lookup that ends before the caller returns.
    pub(crate) fn now(&self) -> arc_swap::Guard<Arc<Catalog>> {
        self.live.catalog.load()
    }

    /// A change the router's builder makes (before serving: nothing to announce). Nothing is
    /// kept when `build` fails.
    pub(crate) fn build(
        &self,
        build: impl FnOnce(&mut Catalog) -> Result<(), RegistryError>,
    ) -> Result<(), RegistryError> {
        let _writer = lock(&self.live.writer);
        let mut next = Catalog::clone(&self.live.catalog.load());
        build(&mut next)?;
        self.live.catalog.store(Arc::new(next));
        Ok(())
    }

    /// Calls the tool `name` of the catalog now, which the call holds until it ends.
    pub(crate) fn call_tool<'a>(
        &self,
        cx: &'a Cx,
        name: &'a str,
        arguments: &'a JsonObject,
    ) -> BoxFuture<'a, Result<CallToolResult, Error>> {
        let catalog = self.live.catalog.load_full();
        Box::pin(async move {
            match catalog.call_tool(cx, name, arguments) {
                Some(call) => call.await,
                None => Err(Error::unknown_tool(name)),
            }
        })
    }

    /// Renders the prompt `name` of the catalog now.
    pub(crate) fn get_prompt<'a>(
        &self,
        cx: &'a Cx,
        name: &'a str,
        arguments: &'a JsonObject,
    ) -> BoxFuture<'a, Result<GetPromptResult, Error>> {
        let catalog = self.live.catalog.load_full();
        Box::pin(async move {
            match catalog.get_prompt(cx, name, arguments) {
                Some(get) => get.await,
                None => Err(catalog::unknown_prompt(name)),
            }
        })
    }

    /// Reads `uri` from the catalog now.
    pub(crate) fn read_resource<'a>(
        &self,
        cx: &'a Cx,
        uri: &'a str,
    ) -> BoxFuture<'a, Result<ReadResourceResult, Error>> {
        let catalog = self.live.catalog.load_full();
        Box::pin(async move {
            match catalog.read_resource(cx, uri) {
                Some(read) => read.await,
                None => Err(Error::resource_not_found(uri)),
            }
        })
    }
}
