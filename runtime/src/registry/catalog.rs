//! [`Catalog`]: what a [`Router`](crate::Router) lists and serves (its tools, prompts,
//! resources and skills), the changes it takes and the lookups its `Handler` methods make. A
//! router holds one in place, fixed once built, or shares it through a
//! [`Registry`](super::Registry), which replaces it whole on each change.

use super::error::{ItemKind, RegistryError};
use crate::cx::Cx;
use crate::identity::Scope;
use crate::prompts::PromptSet;
use crate::protocol::{
    CallToolResult, Cursor, Error, GetPromptResult, HeaderParam, JsonObject, Page, Prompt,
    ReadResourceResult, Resource, ResourceTemplate, Tool, echo,
};
use crate::resources::{ResourceDef, ResourceSet};
use crate::skills::Skills;
use crate::tools::{BoxFuture, TaskMode, ToolBox};
use futures_util::future::Either;
use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

/// A result's future, borrowing what it serves from.
type Serving<'a, T> = BoxFuture<'a, Result<T, Error>>;

/// `-32602` for a prompt no one serves.
pub(crate) fn unknown_prompt(name: &str) -> Error {
    Error::invalid_params(format!("Unknown prompt: {}", echo(name)))
}

/// Everything a router lists: items are appended, and leave only through a removal, which
/// moves the epoch of their list on (see [`Page::slice_in`]).
#[derive(Clone, Default)]
pub(crate) struct Catalog {
    /// The tool definitions, in the order they were added.
    tools: Vec<Tool>,
    /// Tool name -> the set that calls it.
    owners: HashMap<String, Arc<dyn ToolBox>>,
    /// Tool name -> its `x-mcp-header` arguments, for the tools that have any.
    header_params: HashMap<String, Box<[HeaderParam]>>,
    /// Tool name -> its task mode, for the task-capable tools.
    task_modes: HashMap<String, TaskMode>,
    /// Tool name -> the scopes a call needs, for the tools that declare any.
    tool_scopes: HashMap<String, Box<[Scope]>>,
    prompts: PromptSet,
    resources: ResourceSet,
    /// The skills (the Skills extension); shared, since a change copies the catalog.
    skills: Arc<Skills>,
    /// `advertise_asks(false)`: the lists leave out each item's `dev.rondo/asks`.
    hide_asks: bool,
    /// Whether the server advertises the tasks extension: a task-capable tool can be added
    /// while serving only then.
    pub(crate) tasks: bool,
    /// Removals so far, per list.
    epochs: Epochs,
}

/// How many removals each list has had.
#[derive(Clone, Copy, Default)]
struct Epochs {
    tools: u64,
    prompts: u64,
    resources: u64,
}

/// Changes.
impl Catalog {
    /// Adds the tools of `set`, all or none: `Taken` for a name already served or twice in the
    /// set, `TasksNotAdvertised` for a task-capable tool unless the extension is advertised or
    /// `declare_tasks` (the builder, which advertises it).
    pub(crate) fn add_tools(
        &mut self,
        set: Arc<dyn ToolBox>,
        declare_tasks: bool,
    ) -> Result<usize, RegistryError> {
        let defs = set.tools();
        for (i, t) in defs.iter().enumerate() {
            if self.owners.contains_key(&t.name) || defs[..i].iter().any(|d| d.name == t.name) {
                return Err(RegistryError::taken(ItemKind::Tool, &t.name));
            }
            if set.task_mode(&t.name).is_some() && !self.tasks && !declare_tasks {
                let tool = t.name.clone();
                return Err(RegistryError::TasksNotAdvertised { tool });
            }
        }
        let added = defs.len();
        for mut t in defs {
            let name = t.name.clone();
            let params = HeaderParam::of(&t);
            if !params.is_empty() {
                self.header_params.insert(name.clone(), params.into());
            }
            if let Some(mode) = set.task_mode(&name) {
                self.task_modes.insert(name.clone(), mode);
                self.tasks = true;
            }
            let scopes = set.scopes(&name);
            if !scopes.is_empty() {
                self.tool_scopes.insert(name.clone(), scopes.into());
            }
            if self.hide_asks {
                crate::question::without_asks(&mut t);
            }
            self.tools.push(t);
            self.owners.insert(name, set.clone());
        }
        Ok(added)
    }

    /// Removes the tool `name` (`Unknown` when none is served).
    pub(crate) fn remove_tool(&mut self, name: &str) -> Result<(), RegistryError> {
        if self.owners.remove(name).is_none() {
            return Err(RegistryError::unknown(ItemKind::Tool, name));
        }
        self.header_params.remove(name);
        self.task_modes.remove(name);
        self.tool_scopes.remove(name);
        self.tools.retain(|t| t.name != name);
        self.epochs.tools += 1;
        Ok(())
    }

    /// Adds prompts, all or none (`Taken` for a name already served or twice in the set).
    pub(crate) fn add_prompts(&mut self, set: PromptSet) -> Result<(), RegistryError> {
        if let Some(name) = self.prompts.clash(&set) {
            return Err(RegistryError::taken(ItemKind::Prompt, name));
        }
        self.prompts.merge(set);
        Ok(())
    }

    /// Removes the prompt `name`.
    pub(crate) fn remove_prompt(&mut self, name: &str) -> Result<(), RegistryError> {
        if !self.prompts.remove(name) {
            return Err(RegistryError::unknown(ItemKind::Prompt, name));
        }
        self.epochs.prompts += 1;
        Ok(())
    }

    /// Adds resources and templates, all or none: `Taken` for a URI (or template) already
    /// served, twice in the set, or a skill file's.
    pub(crate) fn add_resources(&mut self, set: ResourceSet) -> Result<(), RegistryError> {
        if let Some(uri) = self.resources.clash(&set) {
            return Err(RegistryError::taken(ItemKind::Resource, uri));
        }
        self.check_skill_uris(&set)?;
        self.resources.merge(set);
        Ok(())
    }

    /// Removes the resource or template whose URI (or URI template) is `uri`, as declared.
    pub(crate) fn remove_resource(&mut self, uri: &str) -> Result<(), RegistryError> {
        if !self.resources.remove(uri) {
            return Err(RegistryError::unknown(ItemKind::Resource, uri));
        }
        self.epochs.resources += 1;
        Ok(())
    }

    /// Adds skills (the builder's; a clash between skills panics in [`Skills`]'s merge).
    #[cfg(feature = "skills")]
    pub(crate) fn add_skills(&mut self, skills: Skills) -> Result<(), RegistryError> {
        Arc::make_mut(&mut self.skills).merge(skills);
        let resources = self.resources.clone();
        self.check_skill_uris(&resources)
    }

    /// `Taken` when a fixed resource of `set` has the URI of a skill file (which one
    /// `resources/read` served would depend on the order they were added).
    fn check_skill_uris(&self, set: &ResourceSet) -> Result<(), RegistryError> {
        for (def, _) in set.definitions() {
            if let ResourceDef::Static(r) = def
                && self.skills.serves(&r.uri)
            {
                return Err(RegistryError::taken(ItemKind::Resource, &r.uri));
            }
        }
        Ok(())
    }

    /// Leaves out what each item asks from the lists, from now on.
    pub(crate) fn hide_asks(&mut self) {
        self.hide_asks = true;
        self.tools
            .iter_mut()
            .for_each(crate::question::without_asks);
    }

    /// The tools' names, in list order.
    pub(crate) fn tool_names(&self) -> impl Iterator<Item = &str> {
        self.tools.iter().map(|t| t.name.as_str())
    }
}

/// Lookups: what the router's `Handler` methods answer.
impl Catalog {
    pub(crate) fn call_tool<'a>(
        &'a self,
        cx: &'a Cx,
        name: &'a str,
        arguments: &'a JsonObject,
    ) -> Option<Serving<'a, CallToolResult>> {
        self.owners
            .get(name)
            .and_then(|set| set.call(cx, name, arguments))
    }

    pub(crate) fn header_params(&self, name: &str) -> &[HeaderParam] {
        self.header_params.get(name).map_or(&[], |p| p)
    }

    pub(crate) fn tool_task(&self, name: &str) -> Option<TaskMode> {
        self.task_modes.get(name).copied()
    }

    pub(crate) fn tool_scopes(&self, name: &str) -> &[Scope] {
        self.tool_scopes.get(name).map_or(&[], |s| s)
    }

    pub(crate) fn prompt_scopes(&self, name: &str) -> &'static [Scope] {
        self.prompts.scopes(name)
    }

    pub(crate) fn resource_scopes(&self, uri: &str) -> &'static [Scope] {
        self.resources.scopes(uri)
    }

    pub(crate) fn declared_scopes(&self) -> Vec<Scope> {
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

    pub(crate) fn list_tools(
        &self,
        cx: &Cx,
        cursor: Option<&Cursor>,
        size: Option<usize>,
    ) -> Result<Page<Tool>, Error> {
        let epoch = self.epochs.tools;
        if self.tool_scopes.is_empty() || !cx.lists_filtered() {
            return Page::slice_in(epoch, &self.tools, cursor, size, |t| &t.name);
        }
        let visible: Vec<Tool> = self
            .tools
            .iter()
            .filter(|t| cx.can_see(self.tool_scopes(&t.name)))
            .cloned()
            .collect();
        Page::slice_in(epoch, &visible, cursor, size, |t| &t.name)
    }

    pub(crate) fn list_prompts(
        &self,
        cx: &Cx,
        cursor: Option<&Cursor>,
        size: Option<usize>,
    ) -> Result<Page<Prompt>, Error> {
        let mut all = self.prompts.list();
        all.retain(|p| cx.can_see(self.prompts.scopes(&p.name)));
        if self.hide_asks {
            all.iter_mut().for_each(crate::question::without_asks);
        }
        Page::slice_in(self.epochs.prompts, &all, cursor, size, |p| &p.name)
    }

    pub(crate) fn get_prompt<'a>(
        &'a self,
        cx: &'a Cx,
        name: &str,
        arguments: &'a JsonObject,
    ) -> Option<Serving<'a, GetPromptResult>> {
        self.prompts.get(cx, name, arguments)
    }

    /// The resources' or the templates' listings that `cx` may see, as advertised.
    fn resource_defs<'a>(&'a self, cx: &'a Cx) -> impl Iterator<Item = ResourceDef> + 'a {
        self.resources
            .definitions()
            .filter(|(_, scopes)| cx.can_see(scopes))
            .map(|(mut d, _)| {
                if self.hide_asks {
                    crate::question::without_asks(&mut d);
                }
                d
            })
    }

    pub(crate) fn list_resources(
        &self,
        cx: &Cx,
        cursor: Option<&Cursor>,
        size: Option<usize>,
    ) -> Result<Page<Resource>, Error> {
        let mut all: Vec<Resource> = self
            .resource_defs(cx)
            .filter_map(|d| match d {
                ResourceDef::Static(r) => Some(r),
                ResourceDef::Template(_) => None,
            })
            .collect();
        all.extend_from_slice(self.skills.listed());
        Page::slice_in(self.epochs.resources, &all, cursor, size, |r| &r.uri)
    }

    pub(crate) fn list_resource_templates(
        &self,
        cx: &Cx,
        cursor: Option<&Cursor>,
        size: Option<usize>,
    ) -> Result<Page<ResourceTemplate>, Error> {
        let all: Vec<ResourceTemplate> = self
            .resource_defs(cx)
            .filter_map(|d| match d {
                ResourceDef::Template(t) => Some(t),
                ResourceDef::Static(_) => None,
            })
            .collect();
        let epoch = self.epochs.resources;
        Page::slice_in(epoch, &all, cursor, size, |t| &t.uri_template)
    }

    /// Reads `uri` from the resources, then the skill files.
    pub(crate) fn read_resource<'a>(
        &'a self,
        cx: &'a Cx,
        uri: &'a str,
    ) -> Option<impl Future<Output = Result<ReadResourceResult, Error>> + Send + 'a> {
        if let Some(read) = self.resources.read(cx, uri) {
            return Some(Either::Left(read));
        }
        self.skills.read(uri).map(Either::Right)
    }

    pub(crate) fn skills(&self) -> &Skills {
        &self.skills
    }
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Catalog")
            .field("tools", &self.tool_names().collect::<Vec<_>>())
            .field("prompts", &self.prompts)
            .field("resources", &self.resources)
            .field("skills", &self.skills)
            .finish_non_exhaustive()
    }
}
