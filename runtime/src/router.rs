//! [`Router`]: a [`Handler`] assembled from tool sets, prompts, resources and a completion
//! function. What the macros produce plugs in here.

use crate::cx::Cx;
use crate::handler::Handler;
use crate::identity::Scope;
use crate::prompts::PromptSet;
use crate::protocol::{
    CallToolResult, CompleteRequest, Completion, Cursor, Error, GetPromptResult, HeaderParam,
    JsonObject, Page, Prompt, ReadResourceResult, Resource, ResourceTemplate, Skill, Tool, echo,
};
use crate::resources::{ResourceDef, ResourceSet};
use crate::server_info::ServerInfo;
use crate::sets::ensure_unique;
use crate::skills::Skills;
use crate::tools::{BoxFuture, TaskMode, ToolBox};
use std::collections::HashMap;
use std::future::Future;

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
/// # Panics
///
/// Adding a tool, prompt or resource whose name (or URI) is already taken panics at startup, as
/// axum does for overlapping routes: that is a configuration error, caught before serving. Within
/// one `tools![..]` list or one `#[rondo_mcp::toolbox]` impl, duplicates are compile errors.
#[derive(Default)]
pub struct Router {
    info: Option<ServerInfo>,
    boxes: Vec<Box<dyn ToolBox>>,
    tools: Vec<Tool>,
    /// Tool name -> index into `boxes`.
    owners: HashMap<String, usize>,
    /// Tool name -> its `x-mcp-header` arguments, for the tools that have any.
    header_params: HashMap<String, Box<[HeaderParam]>>,
    /// Tool name -> its task mode, for the task-capable tools.
    task_modes: HashMap<String, TaskMode>,
    /// Tool name -> the scopes a call needs, for the tools that declare any.
    tool_scopes: HashMap<String, Box<[Scope]>>,
    prompts: PromptSet,
    resources: ResourceSet,
    /// The skills (the Skills extension); empty unless [`Router::skills`] added some.
    skills: Skills,
    complete: Option<CompleteFn>,
    /// The most items per page of each list; `None`: every list on one page.
    page_size: Option<usize>,
    /// `advertise_asks(false)`: the lists leave out each item's `dev.rondo/asks`.
    hide_asks: bool,
}

impl std::fmt::Debug for Router {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Router")
            .field(
                "tools",
                &self.tools.iter().map(|t| &t.name).collect::<Vec<_>>(),
            )
            .field("prompts", &self.prompts)
            .field("resources", &self.resources)
            .field("skills", &self.skills)
            .finish_non_exhaustive()
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

    /// Adds a set of tools: `tools![a, b]`, or a value whose `impl` has `#[rondo_mcp::toolbox]`.
    pub fn tools(mut self, tools: impl ToolBox) -> Self {
        let index = self.boxes.len();
        for t in tools.tools() {
            ensure_unique("tool name", &t.name, self.owners.keys().map(String::as_str));
            self.owners.insert(t.name.clone(), index);
            let params = HeaderParam::of(&t);
            if !params.is_empty() {
                self.header_params.insert(t.name.clone(), params.into());
            }
            if let Some(mode) = tools.task_mode(&t.name) {
                self.task_modes.insert(t.name.clone(), mode);
            }
            let scopes = tools.scopes(&t.name);
            if !scopes.is_empty() {
                self.tool_scopes.insert(t.name.clone(), scopes.into());
            }
            let mut t = t;
            if self.hide_asks {
                crate::question::without_asks(&mut t);
            }
            self.tools.push(t);
        }
        self.boxes.push(Box::new(tools));
        self.info_mut().declare_tools();
        if !self.task_modes.is_empty() {
            self.info_mut().declare_tasks();
        }
        self
    }

    /// Adds prompts: `prompts![a, b]`.
    pub fn prompts(mut self, prompts: PromptSet) -> Self {
        self.prompts.merge(prompts);
        self.info_mut().declare_prompts();
        self
    }

    /// Adds resources: `resources![a, b]`.
    pub fn resources(mut self, resources: ResourceSet) -> Self {
        self.resources.merge(resources);
        self.check_skill_uris();
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
        self.skills.merge(skills);
        self.check_skill_uris();
        self.info_mut().declare_skills(true);
        self
    }

    /// Panics when a resource has the URI of a skill file (which one `resources/read` serves
    /// would depend on the order they were added).
    fn check_skill_uris(&self) {
        for (def, _) in self.resources.definitions() {
            if let ResourceDef::Static(r) = def {
                assert!(
                    !self.skills.serves(&r.uri),
                    "duplicate resource URI `{}`: a skill file has it too",
                    r.uri
                );
            }
        }
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
        self.hide_asks = !advertise;
        if self.hide_asks {
            self.tools
                .iter_mut()
                .for_each(crate::question::without_asks);
        }
        self
    }

    /// `item` as listed: without what it asks when [`Router::advertise_asks`] is off.
    fn advertised(&self, mut item: ResourceDef) -> ResourceDef {
        if self.hide_asks {
            crate::question::without_asks(&mut item);
        }
        item
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
}

impl Handler for Router {
    fn info(&self) -> ServerInfo {
        self.info
            .clone()
            .unwrap_or_else(|| ServerInfo::new("rondo", env!("CARGO_PKG_VERSION")))
    }

    async fn list_tools(&self, cx: &Cx, cursor: Option<&Cursor>) -> Result<Page<Tool>, Error> {
        if self.tool_scopes.is_empty() || !cx.lists_filtered() {
            return Page::slice(&self.tools, cursor, self.page_size, |t| &t.name);
        }
        let visible: Vec<Tool> = self
            .tools
            .iter()
            .filter(|t| cx.can_see(self.tool_scopes(&t.name)))
            .cloned()
            .collect();
        Page::slice(&visible, cursor, self.page_size, |t| &t.name)
    }

    fn header_params(&self, name: &str) -> &[HeaderParam] {
        self.header_params.get(name).map_or(&[], |p| p)
    }

    fn tool_task(&self, name: &str) -> Option<TaskMode> {
        self.task_modes.get(name).copied()
    }

    fn tool_scopes(&self, name: &str) -> &[Scope] {
        self.tool_scopes.get(name).map_or(&[], |s| s)
    }

    fn prompt_scopes(&self, name: &str) -> &[Scope] {
        self.prompts.scopes(name)
    }

    fn resource_scopes(&self, uri: &str) -> &[Scope] {
        self.resources.scopes(uri)
    }

    fn declared_scopes(&self) -> Vec<Scope> {
        let tools = self
            .tools
            .iter()
            .flat_map(|t| self.tool_scopes.get(&t.name).into_iter().flatten());
        let mut out: Vec<Scope> = Vec::new();
        let rest = self.prompts.all_scopes().chain(self.resources.all_scopes());
        for s in tools.chain(rest) {
            if !out.contains(s) {
                out.push(s.clone());
            }
        }
        out
    }

    async fn call_tool(
        &self,
        cx: &Cx,
        name: &str,
        arguments: &JsonObject,
    ) -> Result<CallToolResult, Error> {
        let call = self
            .owners
            .get(name)
            .and_then(|&i| self.boxes[i].call(cx, name, arguments));
        match call {
            Some(fut) => fut.await,
            None => Err(Error::unknown_tool(name)),
        }
    }

    async fn list_prompts(&self, cx: &Cx, cursor: Option<&Cursor>) -> Result<Page<Prompt>, Error> {
        let mut all = self.prompts.list();
        all.retain(|p| cx.can_see(self.prompts.scopes(&p.name)));
        if self.hide_asks {
            all.iter_mut().for_each(crate::question::without_asks);
        }
        Page::slice(&all, cursor, self.page_size, |p| &p.name)
    }

    async fn get_prompt(
        &self,
        cx: &Cx,
        name: &str,
        arguments: &JsonObject,
    ) -> Result<GetPromptResult, Error> {
        match self.prompts.get(cx, name, arguments) {
            Some(fut) => fut.await,
            None => Err(Error::invalid_params(format!(
                "Unknown prompt: {}",
                echo(name)
            ))),
        }
    }

    async fn list_resources(
        &self,
        cx: &Cx,
        cursor: Option<&Cursor>,
    ) -> Result<Page<Resource>, Error> {
        let mut all: Vec<Resource> = self
            .resources
            .definitions()
            .filter(|(_, scopes)| cx.can_see(scopes))
            .map(|(d, _)| self.advertised(d))
            .filter_map(|d| match d {
                ResourceDef::Static(r) => Some(r),
                ResourceDef::Template(_) => None,
            })
            .collect();
        all.extend_from_slice(self.skills.listed());
        Page::slice(&all, cursor, self.page_size, |r| &r.uri)
    }

    async fn list_resource_templates(
        &self,
        cx: &Cx,
        cursor: Option<&Cursor>,
    ) -> Result<Page<ResourceTemplate>, Error> {
        let all: Vec<ResourceTemplate> = self
            .resources
            .definitions()
            .filter(|(_, scopes)| cx.can_see(scopes))
            .map(|(d, _)| self.advertised(d))
            .filter_map(|d| match d {
                ResourceDef::Template(t) => Some(t),
                ResourceDef::Static(_) => None,
            })
            .collect();
        Page::slice(&all, cursor, self.page_size, |t| &t.uri_template)
    }

    async fn read_resource(&self, cx: &Cx, uri: &str) -> Result<ReadResourceResult, Error> {
        if let Some(fut) = self.resources.read(cx, uri) {
            return fut.await;
        }
        match self.skills.read(uri) {
            Some(fut) => fut.await,
            None => Err(Error::resource_not_found(uri)),
        }
    }

    async fn list_skills(&self, _cx: &Cx, cursor: Option<&Cursor>) -> Result<Page<Skill>, Error> {
        Page::slice(self.skills.entries(), cursor, self.page_size, |s| &s.uri)
    }

    async fn get_skill(&self, _cx: &Cx, uri: &str) -> Result<Skill, Error> {
        self.skills
            .get(uri)
            .cloned()
            .ok_or_else(|| Error::unknown_skill(uri))
    }

    async fn read_directory(
        &self,
        _cx: &Cx,
        uri: &str,
        cursor: Option<&Cursor>,
    ) -> Result<Page<Resource>, Error> {
        let children = self.skills.directory(uri)?;
        Page::slice(children, cursor, self.page_size, |r| &r.uri)
    }

    async fn complete(&self, _cx: &Cx, request: CompleteRequest) -> Result<Completion, Error> {
        match &self.complete {
            Some(f) => f(request).await,
            None => Ok(Completion::default()),
        }
    }
}
