//! [`ServerInfo`]: who the server is, what it offers and its cache hints, with the builders
//! that declare each capability.

use crate::protocol::{
    CacheHint, Implementation, ListChanged, ResourcesCapability, SKILLS_EXTENSION,
    ServerCapabilities, TASKS_EXTENSION,
};
use serde_json::{Value, json};

/// Who the server is and what it offers, fixed for the server's lifetime.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerInfo {
    /// Name and version (`serverInfo`).
    pub implementation: Implementation,
    /// Instructions for the client's model.
    pub instructions: Option<String>,
    /// What is served. A method whose capability is not set answers `-32601`.
    pub capabilities: ServerCapabilities,
    /// Cache hints for cacheable results.
    pub cache: CacheHint,
}

impl ServerInfo {
    /// A server with a name and a version that offers nothing yet.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        ServerInfo {
            implementation: Implementation::new(name, version),
            instructions: None,
            capabilities: ServerCapabilities::default(),
            cache: CacheHint::default(),
        }
    }
    /// Sets the instructions.
    pub fn instructions(mut self, text: impl Into<String>) -> Self {
        self.instructions = Some(text.into());
        self
    }
    /// Advertises the tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28):
    /// `capabilities.extensions["io.modelcontextprotocol/tasks"] = {}` in `server/discover`.
    /// The engine serves `tasks/get`, `tasks/update` and `tasks/cancel`, and runs a
    /// task-capable tool ([`Handler::tool_task`](crate::Handler::tool_task)) as a task, only
    /// when it is advertised. [`Router`](crate::Router) advertises it when one of its tools
    /// is task-capable.
    pub fn with_tasks(mut self) -> Self {
        self.declare_tasks();
        self
    }
    /// Advertises the Skills extension (`io.modelcontextprotocol/skills`, SEP-2640):
    /// `capabilities.extensions["io.modelcontextprotocol/skills"] = {}` in `server/discover` and
    /// `initialize`, and the `resources` capability it needs (skill files are resources). The
    /// engine serves `skills/list` and `skills/get` ([`Handler::list_skills`],
    /// [`Handler::get_skill`](crate::Handler::get_skill)) only when it is advertised.
    /// [`Router::skills`](crate::Router::skills) advertises it, with `directoryRead`.
    ///
    /// [`Handler::list_skills`]: crate::Handler::list_skills
    pub fn with_skills(mut self) -> Self {
        self.declare_skills(false);
        self
    }
    /// Advertises the Skills extension with `directoryRead: true`: the engine also serves
    /// `resources/directory/read` ([`Handler::read_directory`](crate::Handler::read_directory)).
    pub fn with_skills_directory_read(mut self) -> Self {
        self.declare_skills(true);
        self
    }
    /// Declares tools.
    pub fn with_tools(mut self) -> Self {
        self.declare_tools();
        self
    }
    /// Declares prompts.
    pub fn with_prompts(mut self) -> Self {
        self.declare_prompts();
        self
    }
    /// Declares resources.
    pub fn with_resources(mut self) -> Self {
        self.declare_resources();
        self
    }
    /// Declares `completion/complete`.
    pub fn with_completions(mut self) -> Self {
        self.declare_completions();
        self
    }
    /// Declares log notifications ([`Cx::log`](crate::Cx::log)).
    pub fn with_logging(mut self) -> Self {
        self.capabilities
            .logging
            .get_or_insert_with(Default::default);
        self
    }
    /// Sets the cache hints.
    pub fn cache(mut self, hint: CacheHint) -> Self {
        self.cache = hint;
        self
    }
}

/// Opt-in builders for change notifications: each also declares the capability it extends.
/// Nothing is announced to listeners unless the server advertises it here. Announce the changes
/// with [`Notifier`](crate::Notifier).
impl ServerInfo {
    /// Declares tools with `listChanged: true`.
    pub fn with_tools_list_changed(mut self) -> Self {
        self.declare_tools().list_changed = Some(true);
        self
    }
    /// Declares prompts with `listChanged: true`.
    pub fn with_prompts_list_changed(mut self) -> Self {
        self.declare_prompts().list_changed = Some(true);
        self
    }
    /// Declares resources with `listChanged: true`.
    pub fn with_resources_list_changed(mut self) -> Self {
        self.declare_resources().list_changed = Some(true);
        self
    }
    /// Declares resources with `subscribe: true` (2026-07-28 `resourceSubscriptions`,
    /// 2025-11-25 `resources/subscribe`).
    pub fn with_resource_subscriptions(mut self) -> Self {
        self.declare_resources().subscribe = Some(true);
        self
    }
}

/// Declaring a capability keeps what is already declared (a `listChanged` set earlier stays).
impl ServerInfo {
    pub(crate) fn declare_tools(&mut self) -> &mut ListChanged {
        self.capabilities.tools.get_or_insert_with(Default::default)
    }
    pub(crate) fn declare_prompts(&mut self) -> &mut ListChanged {
        self.capabilities
            .prompts
            .get_or_insert_with(Default::default)
    }
    pub(crate) fn declare_resources(&mut self) -> &mut ResourcesCapability {
        self.capabilities
            .resources
            .get_or_insert_with(Default::default)
    }
    pub(crate) fn declare_tasks(&mut self) {
        self.capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .entry(TASKS_EXTENSION)
            .or_insert_with(|| serde_json::Value::Object(Default::default()));
    }
    /// Whether the tasks extension is advertised.
    pub(crate) fn serves_tasks(&self) -> bool {
        self.capabilities
            .extensions
            .as_ref()
            .is_some_and(|e| e.contains_key(TASKS_EXTENSION))
    }
    /// Declares the Skills extension (and resources); `directoryRead: true` once set stays.
    pub(crate) fn declare_skills(&mut self, directory_read: bool) {
        self.declare_resources();
        let settings = self
            .capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .entry(SKILLS_EXTENSION)
            .or_insert_with(|| Value::Object(Default::default()));
        if let (true, Value::Object(s)) = (directory_read, settings) {
            s.insert("directoryRead".into(), json!(true));
        }
    }
    pub(crate) fn declare_completions(&mut self) {
        self.capabilities
            .completions
            .get_or_insert_with(Default::default);
    }
}
