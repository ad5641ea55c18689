//! The one trait a server implements: tools, prompts, resources and completion.

use crate::cx::Cx;
use crate::identity::Scope;
use crate::notify::Notifier;
use crate::protocol::{
    CallToolResult, CompleteRequest, Completion, Cursor, Error, GetPromptResult, HeaderParam,
    JsonObject, Page, Prompt, ReadResourceResult, Resource, ResourceTemplate, Skill, Tool,
};
use crate::server_info::ServerInfo;
use crate::tools::TaskMode;
use std::borrow::Cow;
use std::future::Future;

/// An MCP server: the one trait behind tools, prompts and resources, for both revisions.
///
/// Every method gets the request's [`Cx`]. From `call_tool`, `get_prompt` and `read_resource`
/// a handler may ask the client for input ([`Cx::elicit`], [`Cx::sample`], [`Cx::list_roots`],
/// [`Cx::ask_raw`]): on 2026-07-28 that answers `InputRequiredResult` and the client calls again
/// with the answers, on 2025-11-25 it sends a real request and awaits the response. The same
/// code serves both.
///
/// Tool *execution* failures are `Ok(CallToolResult)` with `isError: true`
/// ([`CallToolResult::error`]); an `Err` is a protocol error (unknown tool, bad params). A panic
/// in a handler becomes an error result and the server keeps serving.
///
/// # A two-round tool, by hand
///
/// ```
/// use rondo_mcp::prelude::*;
/// use rondo_mcp::protocol::{Cursor, ElicitAction, ElicitRequest, JsonObject, Page};
/// use serde_json::json;
///
/// struct Greeter;
///
/// impl Handler for Greeter {
///     fn info(&self) -> ServerInfo {
///         ServerInfo::new("greeter", "1.0.0").with_tools()
///     }
///
///     async fn list_tools(&self, _cx: &Cx, _cursor: Option<&Cursor>) -> Result<Page<Tool>, Error> {
///         Ok(vec![Tool::new("greet", "Greets the user by name", Tool::no_arguments())].into())
///     }
///
///     async fn call_tool(&self, cx: &Cx, name: &str, _args: &JsonObject) -> Result<CallToolResult, Error> {
///         if name != "greet" {
///             return Err(Error::unknown_tool(name));
///         }
///         let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
///         let form = ElicitRequest::Form {
///             message: "What is your name?".into(),
///             requested_schema: schema.as_object().cloned().unwrap_or_default(),
///         };
///         // Round 1 (2026-07-28) stops here with an InputRequiredResult; round 2 gets the answer.
///         let text = match cx.elicit("user_name", form).await {
///             Ok(r) if r.action == ElicitAction::Accept => {
///                 let name = r.content.as_ref().and_then(|c| c.get("name")).and_then(|v| v.as_str());
///                 format!("Hello, {}!", name.unwrap_or("stranger"))
///             }
///             Ok(_) => "Hello, whoever you are.".to_owned(),       // declined or cancelled
///             Err(why) => format!("Hello! ({why})"),                // the client cannot elicit
///         };
///         Ok(CallToolResult::text(text))
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use rondo_mcp::testing::{Reply, Script, TestClient};
/// let client = TestClient::modern(Server::new(Greeter))
///     .capabilities(ClientCapabilities::with_elicitation_form())
///     .script(Script::new().elicit(Reply::accept(json!({"name": "Ada"}))))
///     .connect()
///     .await
///     .unwrap();
/// let call = client.call_tool("greet", json!({})).await.unwrap();
/// assert_eq!(call.rounds, 2);
/// assert_eq!(call.text(), "Hello, Ada!");
/// # }
/// ```
pub trait Handler: Send + Sync + 'static {
    /// Who the server is and what it serves. Called once, when the [`Server`](crate::Server) is built.
    fn info(&self) -> ServerInfo;

    /// The hub the server announces changes on ([`Server::notifier`](crate::Server::notifier),
    /// [`Cx::notifier`]), when the handler made one before the server existed to announce its
    /// own changes: `None`, the default, lets the server make its own. Called once, when the
    /// [`Server`](crate::Server) is built. A [`Router`](crate::Router) that handed out a
    /// [`Registry`](crate::Registry) returns the registry's.
    fn notifier(&self) -> Option<Notifier> {
        None
    }

    /// `tools/list`: the page of tools that starts at `cursor` (the first page without one),
    /// in a deterministic order. `Ok(vec.into())` is the whole list on one page;
    /// [`Page::slice`] pages a list with cursors a client cannot forge. The `tools/list`
    /// answer carries the page's `nextCursor`.
    fn list_tools(
        &self,
        cx: &Cx,
        cursor: Option<&Cursor>,
    ) -> impl Future<Output = Result<Page<Tool>, Error>> + Send {
        let _ = (cx, cursor);
        async { Ok(Page::from(Vec::new())) }
    }

    /// The arguments of tool `name` that its input schema marks with `x-mcp-header`: over
    /// 2026-07-28 HTTP their values must also come as equal `Mcp-Param-*` headers, and the
    /// transport checks them before the call runs. Asked per call, so it must be a lookup:
    /// compute the lists once ([`HeaderParam::of`]) when the tools are defined, and lend them
    /// (`Cow::Borrowed`); a handler whose tools change while it serves may hand out a copy.
    /// [`Router`](crate::Router) does that for every tool it holds; the default, for a handler
    /// whose tools have no such arguments, is none.
    fn header_params(&self, name: &str) -> Cow<'_, [HeaderParam]> {
        let _ = name;
        Cow::Borrowed(&[])
    }

    /// The task mode of the tool `name` (the tasks extension, 2026-07-28): `None`, the
    /// default, runs every call synchronously. Asked on every `tools/call`; the engine makes
    /// tasks only when [`ServerInfo`] advertises the extension
    /// ([`ServerInfo::with_tasks`]). [`Router`](crate::Router) answers it from its tools.
    fn tool_task(&self, name: &str) -> Option<TaskMode> {
        let _ = name;
        None
    }

    /// The scopes a call of the tool `name` needs (all of them), checked by the HTTP
    /// transport's resource server (the `auth` feature) before the tool runs; a token that
    /// lacks one gets `403 insufficient_scope` and the client steps up. Asked per call, so it
    /// must be a lookup, lent as [`header_params`](Handler::header_params)' are.
    /// [`Router`](crate::Router) answers it from `#[tool(scopes = [..])]`; the default is none.
    fn tool_scopes(&self, name: &str) -> Cow<'_, [Scope]> {
        let _ = name;
        Cow::Borrowed(&[])
    }

    /// The scopes `prompts/get` of the prompt `name` needs (see [`Handler::tool_scopes`]).
    fn prompt_scopes(&self, name: &str) -> Cow<'_, [Scope]> {
        let _ = name;
        Cow::Borrowed(&[])
    }

    /// The scopes `resources/read` of `uri` needs (see [`Handler::tool_scopes`]).
    fn resource_scopes(&self, uri: &str) -> Cow<'_, [Scope]> {
        let _ = uri;
        Cow::Borrowed(&[])
    }

    /// Every scope this handler declares, in first-declared order: the resource server's
    /// `scopes_supported` when it is not configured.
    fn declared_scopes(&self) -> Vec<Scope> {
        Vec::new()
    }

    /// `tools/call`.
    fn call_tool(
        &self,
        cx: &Cx,
        name: &str,
        arguments: &JsonObject,
    ) -> impl Future<Output = Result<CallToolResult, Error>> + Send {
        let _ = (cx, arguments);
        async move { Err(Error::unknown_tool(name)) }
    }

    /// `prompts/list`, paged as [`list_tools`](Handler::list_tools) is.
    fn list_prompts(
        &self,
        cx: &Cx,
        cursor: Option<&Cursor>,
    ) -> impl Future<Output = Result<Page<Prompt>, Error>> + Send {
        let _ = (cx, cursor);
        async { Ok(Page::from(Vec::new())) }
    }

    /// `prompts/get`.
    fn get_prompt(
        &self,
        cx: &Cx,
        name: &str,
        arguments: &JsonObject,
    ) -> impl Future<Output = Result<GetPromptResult, Error>> + Send {
        let _ = (cx, arguments);
        async move {
            Err(Error::invalid_params(format!(
                "Unknown prompt: {}",
                crate::protocol::echo(name)
            )))
        }
    }

    /// `resources/list`, paged as [`list_tools`](Handler::list_tools) is.
    fn list_resources(
        &self,
        cx: &Cx,
        cursor: Option<&Cursor>,
    ) -> impl Future<Output = Result<Page<Resource>, Error>> + Send {
        let _ = (cx, cursor);
        async { Ok(Page::from(Vec::new())) }
    }

    /// `resources/templates/list`, paged as [`list_tools`](Handler::list_tools) is.
    fn list_resource_templates(
        &self,
        cx: &Cx,
        cursor: Option<&Cursor>,
    ) -> impl Future<Output = Result<Page<ResourceTemplate>, Error>> + Send {
        let _ = (cx, cursor);
        async { Ok(Page::from(Vec::new())) }
    }

    /// `resources/read`. An unknown URI is [`Error::resource_not_found`], never empty contents.
    fn read_resource(
        &self,
        cx: &Cx,
        uri: &str,
    ) -> impl Future<Output = Result<ReadResourceResult, Error>> + Send {
        let _ = cx;
        async move { Err(Error::resource_not_found(uri)) }
    }

    /// `skills/list` (the Skills extension, SEP-2640), paged as
    /// [`list_tools`](Handler::list_tools) is; an entry is never split across pages. Served
    /// only when [`ServerInfo`] declares the extension ([`ServerInfo::with_skills`]);
    /// [`Router`](crate::Router) answers it from its [`Skills`](crate::Skills).
    fn list_skills(
        &self,
        cx: &Cx,
        cursor: Option<&Cursor>,
    ) -> impl Future<Output = Result<Page<Skill>, Error>> + Send {
        let _ = (cx, cursor);
        async { Ok(Page::from(Vec::new())) }
    }

    /// `skills/get`: the entry of the skill whose `SKILL.md` is at `uri`, whether or not
    /// `skills/list` lists it; [`Error::unknown_skill`] (`-32602`) when there is none.
    fn get_skill(&self, cx: &Cx, uri: &str) -> impl Future<Output = Result<Skill, Error>> + Send {
        let _ = cx;
        async move { Err(Error::unknown_skill(uri)) }
    }

    /// `resources/directory/read`: the direct children of the directory resource at `uri`
    /// (files with their `Resource` metadata, subfolders with the MIME type
    /// [`DIRECTORY_MIME_TYPE`](crate::protocol::DIRECTORY_MIME_TYPE)), paged;
    /// [`Error::not_a_directory`] (`-32602`) for anything else. Served only when
    /// [`ServerInfo`] declares `directoryRead` ([`ServerInfo::with_skills_directory_read`]).
    fn read_directory(
        &self,
        cx: &Cx,
        uri: &str,
        cursor: Option<&Cursor>,
    ) -> impl Future<Output = Result<Page<Resource>, Error>> + Send {
        let _ = (cx, cursor);
        async move { Err(Error::not_a_directory(uri)) }
    }

    /// `completion/complete`.
    fn complete(
        &self,
        cx: &Cx,
        request: CompleteRequest,
    ) -> impl Future<Output = Result<Completion, Error>> + Send {
        let _ = (cx, request);
        async { Ok(Completion::default()) }
    }
}
