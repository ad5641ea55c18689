//! The traits behind `#[tool]`: one tool ([`ToolHandler`]), a set of tools ([`ToolBox`]), and
//! what a tool may return ([`IntoToolResult`]).

use crate::cx::Cx;
use crate::identity::Scope;
use crate::protocol::{CallToolResult, Content, Error, JsonObject, Tool};
use crate::sets::{ItemSet, SetEntry};
use schemars::JsonSchema;
use serde::Serialize;
use std::fmt::Display;

pub use crate::sync::BoxFuture;

/// One tool, defined by a type. `#[tool]` on `async fn search(..)` implements it on a hidden
/// type named `search`, which `tools![search]` collects.
///
/// By hand:
///
/// ```
/// use rondo_mcp::prelude::*;
/// use rondo_mcp::protocol::JsonObject;
/// use rondo_mcp::{BoxFuture, ToolHandler};
///
/// struct Ping;
///
/// impl ToolHandler for Ping {
///     const NAME: &'static str = "ping";
///     fn definition() -> Tool {
///         Tool::new("ping", "Answers pong", Tool::no_arguments())
///     }
///     fn call<'a>(_cx: &'a Cx, _args: &'a JsonObject) -> BoxFuture<'a, Result<CallToolResult, Error>> {
///         Box::pin(async { Ok(CallToolResult::text("pong")) })
///     }
/// }
///
/// let tools = rondo_mcp::ToolSet::new().with::<Ping>();
/// # let _ = tools;
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool",
    label = "not a `#[tool]` function",
    note = "add `#[rondo_mcp::tool]` to the function, or implement `rondo_mcp::ToolHandler` for the type"
)]
pub trait ToolHandler: 'static {
    /// The tool's name, checked at compile time by `#[tool]`.
    const NAME: &'static str;
    /// The definition listed by `tools/list`.
    fn definition() -> Tool;
    /// Whether the tool may run as a task (the tasks extension, 2026-07-28): `None`, the
    /// default, always answers synchronously. `#[tool(task = optional)]` sets it.
    const TASK: Option<TaskMode> = None;
    /// The OAuth scopes a call needs on a protected HTTP endpoint (the `auth` feature): a
    /// token without one of them gets `403 insufficient_scope` naming them all, before the
    /// tool runs. None by default; `#[tool(scopes = ["orders:write"])]` sets it.
    const SCOPES: &'static [Scope] = &[];
    /// Runs the tool.
    fn call<'a>(
        cx: &'a Cx,
        arguments: &'a JsonObject,
    ) -> BoxFuture<'a, Result<CallToolResult, Error>>;
}

/// A set of tools: a [`ToolSet`] of free functions, or a type whose `impl` block carries
/// `#[rondo_mcp::toolbox]` (methods with shared `&self` state).
pub trait ToolBox: Send + Sync + 'static {
    /// The definitions, in a fixed order.
    fn tools(&self) -> Vec<Tool>;
    /// The task mode of the tool `name` (see [`ToolHandler::TASK`]); `None` by default.
    fn task_mode(&self, name: &str) -> Option<TaskMode> {
        let _ = name;
        None
    }
    /// The scopes the tool `name` needs (see [`ToolHandler::SCOPES`]); none by default.
    fn scopes(&self, name: &str) -> &[Scope] {
        let _ = name;
        &[]
    }
    /// Calls the tool `name`; `None` when this set has no such tool.
    fn call<'a>(
        &'a self,
        cx: &'a Cx,
        name: &'a str,
        arguments: &'a JsonObject,
    ) -> Option<BoxFuture<'a, Result<CallToolResult, Error>>>;
}

type CallFn = for<'a> fn(&'a Cx, &'a JsonObject) -> BoxFuture<'a, Result<CallToolResult, Error>>;

/// Free-function tools, built by `tools![a, b]` (which also rejects duplicate names at
/// compile time) or by hand with [`ToolSet::with`].
#[derive(Clone, Default)]
pub struct ToolSet {
    items: ItemSet<ToolEntry>,
}

/// One tool of a [`ToolSet`]: what [`ToolHandler`] provides, as function pointers.
#[derive(Clone, Copy)]
struct ToolEntry {
    name: &'static str,
    definition: fn() -> Tool,
    call: CallFn,
    task: Option<TaskMode>,
    scopes: &'static [Scope],
}

impl SetEntry for ToolEntry {
    const KEY: &'static str = "tool name";
    fn key(&self) -> &str {
        self.name
    }
}

impl std::fmt::Debug for ToolSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.items.fmt(f)
    }
}

impl ToolSet {
    /// An empty set.
    pub fn new() -> Self {
        ToolSet::default()
    }
    /// Adds the tool `T`.
    pub fn with<T: ToolHandler>(mut self) -> Self {
        self.items.push(ToolEntry {
            name: T::NAME,
            definition: T::definition,
            call: T::call,
            task: T::TASK,
            scopes: T::SCOPES,
        });
        self
    }
}

impl ToolBox for ToolSet {
    fn tools(&self) -> Vec<Tool> {
        self.items.entries().map(|e| (e.definition)()).collect()
    }
    fn call<'a>(
        &'a self,
        cx: &'a Cx,
        name: &'a str,
        arguments: &'a JsonObject,
    ) -> Option<BoxFuture<'a, Result<CallToolResult, Error>>> {
        self.items.find(name).map(|e| (e.call)(cx, arguments))
    }
    fn task_mode(&self, name: &str) -> Option<TaskMode> {
        self.items.find(name).and_then(|e| e.task)
    }
    fn scopes(&self, name: &str) -> &[Scope] {
        self.items.find(name).map_or(&[], |e| e.scopes)
    }
}

/// Whether a tool may run as a task (the tasks extension, `io.modelcontextprotocol/tasks`,
/// 2026-07-28 only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TaskSupport {
    /// A task when the request declared the extension; a synchronous call otherwise.
    Optional,
    /// A task when the request declared the extension; otherwise `-32021` naming it, before
    /// the tool runs (also at 2025-11-25, where the extension does not exist).
    Required,
}

/// Where a task-capable tool becomes a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TaskStart {
    /// Before the tool runs: `tools/call` answers the new task at once.
    #[default]
    Entry,
    /// Where the tool calls [`Cx::start_task`]: before it, the call is an ordinary
    /// (multi-round) call, and a tool that returns before it answers synchronously.
    Explicit,
}

/// A tool's task mode: whether it may run as a task, and where it becomes one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TaskMode {
    /// Whether the tool needs the extension.
    pub support: TaskSupport,
    /// Where the task starts.
    pub start: TaskStart,
}

impl TaskMode {
    /// A task when the client declared the extension, synchronous otherwise; starts at entry.
    pub const OPTIONAL: TaskMode = TaskMode {
        support: TaskSupport::Optional,
        start: TaskStart::Entry,
    };
    /// Only as a task (`-32021` without the extension); starts at entry.
    pub const REQUIRED: TaskMode = TaskMode {
        support: TaskSupport::Required,
        start: TaskStart::Entry,
    };
    /// The same mode, started where the tool calls [`Cx::start_task`].
    pub const fn explicit_start(self) -> TaskMode {
        TaskMode {
            support: self.support,
            start: TaskStart::Explicit,
        }
    }
}

/// Structured tool output: serialised into `structuredContent` (and as JSON text for older
/// clients), with `outputSchema` generated from `T`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Json<T>(pub T);

/// What a `#[tool]` function may return.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a `#[tool]` function",
    note = "return `String`, `Json<T>`, `Content`, `Vec<Content>`, `CallToolResult`, a number, `bool` or `()`, or a `Result<_, E: Display>` of one of them"
)]
pub trait IntoToolResult {
    /// The `outputSchema` this output declares, if it is structured.
    fn output_schema() -> Option<JsonObject> {
        None
    }
    /// Converts into the result sent to the client.
    fn into_tool_result(self) -> CallToolResult;
}

impl IntoToolResult for CallToolResult {
    fn into_tool_result(self) -> CallToolResult {
        self
    }
}

impl IntoToolResult for String {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::text(self)
    }
}

impl IntoToolResult for &'static str {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::text(self)
    }
}

impl IntoToolResult for Content {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::success(vec![self])
    }
}

impl IntoToolResult for Vec<Content> {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::success(self)
    }
}

impl IntoToolResult for () {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::success(Vec::new())
    }
}

macro_rules! display_results {
    ($($t:ty),*) => {$(
        impl IntoToolResult for $t {
            fn into_tool_result(self) -> CallToolResult {
                CallToolResult::text(self.to_string())
            }
        }
    )*};
}
display_results!(
    bool, i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64
);

impl<T: Serialize + JsonSchema> IntoToolResult for Json<T> {
    fn output_schema() -> Option<JsonObject> {
        crate::schema::root_schema_for::<T>().as_object().cloned()
    }
    fn into_tool_result(self) -> CallToolResult {
        match serde_json::to_value(&self.0) {
            Ok(v) => CallToolResult::structured(v),
            Err(e) => {
                CallToolResult::error(format!("the tool's output could not be serialised: {e}"))
            }
        }
    }
}

impl<T: IntoToolResult, E: Display> IntoToolResult for Result<T, E> {
    fn output_schema() -> Option<JsonObject> {
        T::output_schema()
    }
    fn into_tool_result(self) -> CallToolResult {
        match self {
            Ok(t) => t.into_tool_result(),
            Err(e) => CallToolResult::error(e.to_string()),
        }
    }
}
