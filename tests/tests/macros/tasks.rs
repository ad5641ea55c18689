//! `task = ..` and `task_start = ..` on `#[tool]` and on `#[toolbox]` methods: the mode each
//! tool's expansion declares (`ToolHandler::TASK`, `ToolBox::task_mode`), and what a `Router`
//! built from them answers and advertises (the tasks extension).

use rondo_mcp::prelude::*;
use rondo_mcp::{TaskMode, TaskStart, TaskSupport, ToolBox, ToolHandler, tool, toolbox, tools};

/// Answers at once.
#[tool]
async fn plain() -> String {
    String::new()
}

/// A task when the client declared the extension.
#[tool(task = optional)]
async fn maybe_task() -> String {
    String::new()
}

/// Only ever a task.
#[tool(task = required, task_start = entry)]
async fn always_task() -> String {
    String::new()
}

/// A task from where it calls `start_task`.
#[tool(read_only_hint, task = required, task_start = explicit)]
async fn late_task() -> String {
    String::new()
}

struct Jobs;

#[toolbox]
impl Jobs {
    /// Synchronous.
    #[tool]
    async fn now(&self) -> String {
        String::new()
    }

    /// Optional, starting where it says.
    #[tool(name = "later", task = optional, task_start = explicit)]
    async fn later_method(&self) -> String {
        String::new()
    }

    /// Required.
    #[tool(task = required)]
    async fn batch(&self) -> String {
        String::new()
    }
}

#[test]
fn a_tool_declares_the_mode_its_attribute_says() {
    assert_eq!(<plain as ToolHandler>::TASK, None);
    assert_eq!(<maybe_task as ToolHandler>::TASK, Some(TaskMode::OPTIONAL));
    assert_eq!(<always_task as ToolHandler>::TASK, Some(TaskMode::REQUIRED));
    assert_eq!(
        <late_task as ToolHandler>::TASK,
        Some(TaskMode {
            support: TaskSupport::Required,
            start: TaskStart::Explicit,
        })
    );
}

#[test]
fn a_toolbox_answers_the_mode_of_each_method_by_tool_name() {
    assert_eq!(Jobs.task_mode("now"), None);
    assert_eq!(
        Jobs.task_mode("later"),
        Some(TaskMode::OPTIONAL.explicit_start())
    );
    assert_eq!(Jobs.task_mode("batch"), Some(TaskMode::REQUIRED));
    // The method's Rust name is not the tool's name.
    assert_eq!(Jobs.task_mode("later_method"), None);
    assert_eq!(Jobs.task_mode("missing"), None);
}

fn extensions(router: &Router) -> Option<rondo_mcp::protocol::JsonObject> {
    router.info().capabilities.extensions
}

#[test]
fn a_router_answers_the_modes_and_advertises_the_extension_only_with_task_tools() {
    let router = Router::new(ServerInfo::new("t", "1")).tools(tools![plain, maybe_task]);
    assert_eq!(router.tool_task("maybe_task"), Some(TaskMode::OPTIONAL));
    assert_eq!(router.tool_task("plain"), None);
    let advertised = extensions(&router).expect("a task tool advertises the extension");
    assert!(advertised.contains_key("io.modelcontextprotocol/tasks"));

    let router = Router::new(ServerInfo::new("t", "1")).tools(Jobs);
    assert_eq!(router.tool_task("batch"), Some(TaskMode::REQUIRED));
    assert_eq!(
        router.tool_task("later"),
        Some(TaskMode::OPTIONAL.explicit_start())
    );
    assert!(extensions(&router).is_some_and(|e| e.contains_key("io.modelcontextprotocol/tasks")));

    let router = Router::new(ServerInfo::new("t", "1")).tools(tools![plain]);
    assert_eq!(router.tool_task("plain"), None);
    assert_eq!(extensions(&router), None);
}
