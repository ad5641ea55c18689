//! [`Router`]: a [`Handler`] assembled from tool sets, prompts, resources and a completion
//! function. What the macros produce plugs in here; a [`Registry`] changes it while it serves.

use crate::cx::Cx;
use crate::handler::Handler;
use crate::identity::Scope;
use crate::notify::Notifier;
use crate::prompts::PromptSet;
use crate::protocol::{
    CallToolResult, CompleteRequest, Completion, Cursor, Error, GetPromptResult, HeaderParam,
    JsonObject, Page, Prompt, ReadResourceResult, Resource, ResourceTemplate, Skill, Tool,
};
use crate::registry::{Catalog, Registry, RegistryError};
use crate::resources::ResourceSet;
use crate::server_info::ServerInfo;
#[cfg(feature = "skills")]
use crate::skills::Skills;
use crate::tools::{BoxFuture, TaskMode, ToolBox};
use std::borrow::Cow;
use std::future::Future;
use std::sync::Arc;

type CompleteFn =
    Box<dyn Fn(CompleteRequest) -> BoxFuture<'static, Result<Completion, Error>> + Send + Sync>;

/// A server built from parts; each part added also declares its capability.
///
/// ```
/// use rondo_mcp::prelude::*;
///
/// /// Adds two integers.
/// #[rondo_mcp::tool]
/// async fn add(a: i64, b: i64) -> i64 {
///     a + b
/// }
///
/// let router = Router::new(ServerInfo::new("calculator", "1.0.0")).tools(rondo_mcp::tools![add]);
/// let server = Server::new(router);
/// # let _ = server;
/// ```
///
/// What a router serves is fixed once it is built, unless it handed out a [`Registry`]
/// ([`Router::registry`]), which adds and removes tools, prompts and resources while it serves.
///
/// # Panics
///
/// Adding a tool, prompt or resource whose name (or URI) is already taken panics at startup, as
/// axum does for overlapping routes: that is a configuration error, caught before serving. Within
/// one `tools![..]` list or one `#[rondo_mcp::toolbox]` impl, duplicates are compile errors. (A
/// [`Registry`] answers the same mistake made while serving with an error instead.)
#[derive(Default)]
pub struct Router {
    info: Option<ServerInfo>,
    /// What it lists and serves.
    parts: Parts,
    complete: Option<CompleteFn>,
    /// The most items per page of each list; `None`: every list on one page.
    page_size: Option<usize>,
}

/// A router's catalog: in place, or shared with a [`Registry`] that changes it.
// One per router, made once: the fixed catalog stays in place (no box) so that the static
// path reads it with no indirection.
#[expect(
    clippy::large_enum_variant,
    reason = "one per router; the fixed catalog is read in place"
)]
enum Parts {
    /// Fixed when the router was built: read directly, with no atomic operation.
    Fixed(Catalog),
    /// Changed by a registry while serving: each request reads the catalog current when it
    /// starts.
    Live(Registry),
}

impl Default for Parts {
    fn default() -> Self {
        Parts::Fixed(Catalog::default())
    }
}

impl std::fmt::Debug for Router {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Router");
        match &self.parts {
            Parts::Fixed(c) => d.field("catalog", c),
            Parts::Live(r) => d.field("registry", r),
        };
        d.finish_non_exhaustive()
    }
}

impl Router {
    /// A router for the server `info` (its capabilities grow as parts are added).
    pub fn new(info: ServerInfo) -> Self {
        Router {
            info: Some(info),
            ..Router::default()
        }
    }

    fn info_mut(&mut self) -> &mut ServerInfo {
        self.info
            .get_or_insert_with(|| ServerInfo::new("rondo", env!("CARGO_PKG_VERSION")))
    }

    /// Makes a builder's change, wherever the catalog is.
    ///
    /// # Panics
    /// When the change is refused (a name or URI already taken): a configuration error.
    fn build(&mut self, change: impl FnOnce(&mut Catalog) -> Result<(), RegistryError>) {
        let done = match &mut self.parts {
            Parts::Fixed(catalog) => change(catalog),
            Parts::Live(registry) => registry.build(change),
        };
        if let Err(e) = done {
            panic!("{e}");
        }
    }

    /// Whether the catalog holds a task-capable tool, or the info advertises tasks.
    fn tasks(&self) -> bool {
        match &self.parts {
            Parts::Fixed(c) => c.tasks,
            Parts::Live(r) => r.now().tasks,
        }
    }

    /// Adds a set of tools: `tools![a, b]`, or a value whose `impl` has `#[rondo_mcp::toolbox]`.
    /// A task-capable tool also advertises the tasks extension.
    pub fn tools(mut self, tools: impl ToolBox) -> Self {
        let tools: Arc<dyn ToolBox> = Arc::new(tools);
        self.build(|c| c.add_tools(tools, true).map(drop));
        self.info_mut().declare_tools();
        if self.tasks() {
            self.info_mut().declare_tasks();
        }
        self
    }

    /// Adds prompts: `prompts![a, b]`.
    pub fn prompts(mut self, prompts: PromptSet) -> Self {
        self.build(|c| c.add_prompts(prompts));
        self.info_mut().declare_prompts();
        self
    }

    /// Adds resources: `resources![a, b]`.
    pub fn resources(mut self, resources: ResourceSet) -> Self {
        self.build(|c| c.add_resources(resources));
        self.info_mut().declare_resources();
        self
    }

    /// Serves skills (the Skills extension, SEP-2640): `skills!("skills")`, or
    /// [`Skills::from_dir`] at start. Declares the extension with `directoryRead: true` and the
    /// `resources` capability; `skills/list` and `skills/get` answer the entries,
    /// `resources/read` every skill file, `resources/directory/read` every folder, and
    /// `resources/list` shows each `SKILL.md` after the other resources ([`skills`](mod@crate::skills)).
    /// Adding skills again adds to them.
    ///
    /// # Panics
    /// When a skill file's URI is already taken by another skill or a resource.
    #[cfg(feature = "skills")]
    pub fn skills(mut self, skills: Skills) -> Self {
        self.build(|c| c.add_skills(skills));
        self.info_mut().declare_skills(true);
        self
    }

    /// Pages every list (`tools/list`, `prompts/list`, `resources/list`,
    /// `resources/templates/list`, `skills/list`, `resources/directory/read`) with at most `n` items per page (at least 1), each page's
    /// answer carrying the `nextCursor` of the next. Without it every list is one page.
    pub fn page_size(mut self, n: usize) -> Self {
        self.page_size = Some(n.max(1));
        self
    }

    /// Whether the lists (`tools/list`, `prompts/list`, `resources/list`,
    /// `resources/templates/list`) advertise, in each item's `_meta` under
    /// [`ASKS_META_KEY`](crate::ASKS_META_KEY) (`dev.rondo/asks`), the questions its
    /// `asks = [..]` lists: key, kind, mode, fallback, and whether the capability is required.
    /// On by default; `false` leaves the key out of every item, added before or after.
    pub fn advertise_asks(mut self, advertise: bool) -> Self {
        if !advertise {
            self.build(|c| {
                c.hide_asks();
                Ok(())
            });
        }
        self
    }

    /// Serves `completion/complete` with `f`.
    pub fn completion<F, Fut>(mut self, f: F) -> Self
    where
        F: Fn(CompleteRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Completion, Error>> + Send + 'static,
    {
        self.complete = Some(Box::new(move |r| Box::pin(f(r))));
        self.info_mut().declare_completions();
        self
    }

    /// The handle that adds and removes this router's tools, prompts and resources while it
    /// serves, and announces each change (see [`Registry`]). Every call hands out the same one.
    ///
    /// The router then advertises `listChanged: true` for tools, prompts and resources (it
    /// declares all three, since any may be added later), and the server announces on the
    /// registry's hub ([`Handler::notifier`]). The router's builders still work after it. A
    /// router never asked for one keeps its parts in place and serves them with no atomic
    /// operation or lock.
    pub fn registry(&mut self) -> Registry {
        let info = self.info_mut();
        info.declare_tools().list_changed = Some(true);
        info.declare_prompts().list_changed = Some(true);
        info.declare_resources().list_changed = Some(true);
        let tasks = info.serves_tasks();
        let registry = match std::mem::take(&mut self.parts) {
            Parts::Live(registry) => registry,
            Parts::Fixed(mut catalog) => {
                catalog.tasks |= tasks;
                Registry::new(catalog)
            }
        };
        self.parts = Parts::Live(registry.clone());
        registry
    }
}

/// Lookups in the catalog, wherever it is.
impl Router {
    fn read<R>(&self, lookup: impl FnOnce(&Catalog) -> R) -> R {
        match &self.parts {
            Parts::Fixed(catalog) => lookup(catalog),
            Parts::Live(registry) => lookup(&registry.now()),
        }
    }

    /// A slice of the catalog: borrowed from a catalog in place, copied from a registry's.
    fn read_slice<T: Clone>(&self, lookup: impl Fn(&Catalog) -> &[T]) -> Cow<'_, [T]> {
        match &self.parts {
            Parts::Fixed(catalog) => Cow::Borrowed(lookup(catalog)),
            Parts::Live(registry) => Cow::Owned(lookup(&registry.now()).to_vec()),
        }
    }
}

impl Handler for Router {
    fn info(&self) -> ServerInfo {
        self.info
            .clone()
            .unwrap_or_else(|| ServerInfo::new("rondo", env!("CARGO_PKG_VERSION")))
    }

    fn notifier(&self) -> Option<Notifier> {
        match &self.parts {
            Parts::Fixed(_) => None,
            Parts::Live(registry) => Some(registry.notifier().clone()),
        }
    }

    async fn list_tools(&self, cx: &Cx, cursor: Option<&Cursor>) -> Result<Page<Tool>, Error> {
        self.read(|c| c.list_tools(cx, cursor, self.page_size))
    }

    fn header_params(&self, name: &str) -> Cow<'_, [HeaderParam]> {
        self.read_slice(|c| c.header_params(name))
    }

    fn tool_task(&self, name: &str) -> Option<TaskMode> {
        self.read(|c| c.tool_task(name))
    }

    fn tool_scopes(&self, name: &str) -> Cow<'_, [Scope]> {
        self.read_slice(|c| c.tool_scopes(name))
    }

    fn prompt_scopes(&self, name: &str) -> Cow<'_, [Scope]> {
        Cow::Borrowed(self.read(|c| c.prompt_scopes(name)))
    }

    fn resource_scopes(&self, uri: &str) -> Cow<'_, [Scope]> {
        Cow::Borrowed(self.read(|c| c.resource_scopes(uri)))
    }

    fn declared_scopes(&self) -> Vec<Scope> {
        self.read(Catalog::declared_scopes)
    }

    async fn call_tool(
        &self,
        cx: &Cx,
        name: &str,
        arguments: &JsonObject,
    ) -> Result<CallToolResult, Error> {
        let call = match &self.parts {
            Parts::Fixed(catalog) => catalog.call_tool(cx, name, arguments),
            Parts::Live(registry) => Some(registry.call_tool(cx, name, arguments)),
        };
        match call {
            Some(fut) => fut.await,
            None => Err(Error::unknown_tool(name)),
        }
    }

    async fn list_prompts(&self, cx: &Cx, cursor: Option<&Cursor>) -> Result<Page<Prompt>, Error> {
        self.read(|c| c.list_prompts(cx, cursor, self.page_size))
    }

    async fn get_prompt(
        &self,
        cx: &Cx,
        name: &str,
        arguments: &JsonObject,
    ) -> Result<GetPromptResult, Error> {
        let get = match &self.parts {
            Parts::Fixed(catalog) => catalog.get_prompt(cx, name, arguments),
            Parts::Live(registry) => Some(registry.get_prompt(cx, name, arguments)),
        };
        match get {
            Some(fut) => fut.await,
            None => Err(crate::registry::unknown_prompt(name)),
        }
    }

    async fn list_resources(
        &self,
        cx: &Cx,
        cursor: Option<&Cursor>,
    ) -> Result<Page<Resource>, Error> {
        self.read(|c| c.list_resources(cx, cursor, self.page_size))
    }

    async fn list_resource_templates(
        &self,
        cx: &Cx,
        cursor: Option<&Cursor>,
    ) -> Result<Page<ResourceTemplate>, Error> {
        self.read(|c| c.list_resource_templates(cx, cursor, self.page_size))
    }

    async fn read_resource(&self, cx: &Cx, uri: &str) -> Result<ReadResourceResult, Error> {
        match &self.parts {
            Parts::Fixed(catalog) => match catalog.read_resource(cx, uri) {
                Some(read) => read.await,
                None => Err(Error::resource_not_found(uri)),
            },
            Parts::Live(registry) => registry.read_resource(cx, uri).await,
        }
    }

    async fn list_skills(&self, _cx: &Cx, cursor: Option<&Cursor>) -> Result<Page<Skill>, Error> {
        self.read(|c| Page::slice(c.skills().entries(), cursor, self.page_size, |s| &s.uri))
    }

    async fn get_skill(&self, _cx: &Cx, uri: &str) -> Result<Skill, Error> {
        self.read(|c| c.skills().get(uri).cloned())
            .ok_or_else(|| Error::unknown_skill(uri))
    }

    async fn read_directory(
        &self,
        _cx: &Cx,
        uri: &str,
        cursor: Option<&Cursor>,
    ) -> Result<Page<Resource>, Error> {
        self.read(|c| {
            let children = c.skills().directory(uri)?;
            Page::slice(children, cursor, self.page_size, |r| &r.uri)
        })
    }

    async fn complete(&self, _cx: &Cx, request: CompleteRequest) -> Result<Completion, Error> {
        match &self.complete {
            Some(f) => f(request).await,
            None => Ok(Completion::default()),
        }
    }
}
