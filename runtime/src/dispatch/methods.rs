//! The methods both revisions share: lists, `tools/call`, `prompts/get`, `resources/read` and
//! `completion/complete`, each gated by the capability the server advertises (`-32601` if not).

use super::drive::{Driven, drive, settle};
use super::{Answered, ClientFacts, Conn, Engine, object_param, owned_object, string_param};
use crate::cx::{AskState, Cx};
use crate::handler::Handler;
use crate::protocol::{
    CallToolResult, CompleteRequest, Cursor, Error, JsonObject, Method, Page, Request, Revision,
    Tool, echo,
};
use serde::Serialize;
use serde_json::{Value, json};
use std::future::Future;

impl<H: Handler> Engine<H> {
    /// Routes a method both revisions share.
    pub(super) async fn method(&self, req: &Request, conn: &Conn, facts: ClientFacts) -> Answered {
        let caps = &self.config.info.capabilities;
        let (tools, prompts, resources) = (
            caps.tools.is_some(),
            caps.prompts.is_some(),
            caps.resources.is_some(),
        );
        let empty = JsonObject::new();
        let params = req.params.as_ref().unwrap_or(&empty);
        let h = &*self.handler;
        match &req.method {
            Method::ToolsList if tools => self.list_tools(req, conn, facts).await,
            Method::ToolsCall if tools => self.call_tool(req, conn, facts, params).await,
            Method::PromptsList if prompts => {
                let cursor = Cursor::from_params(req.params.as_ref())?;
                let cx = self.cx(req, conn, facts, None, AskState::default(), 0);
                let page = h.list_prompts(&cx, cursor.as_ref());
                self.list(&cx, page, "prompts", |p| p).await
            }
            Method::PromptsGet if prompts => self.get_prompt(req, conn, facts, params).await,
            Method::ResourcesList if resources => {
                let cursor = Cursor::from_params(req.params.as_ref())?;
                let cx = self.cx(req, conn, facts, None, AskState::default(), 0);
                let page = h.list_resources(&cx, cursor.as_ref());
                self.list(&cx, page, "resources", |r| r).await
            }
            Method::ResourceTemplatesList if resources => {
                let cursor = Cursor::from_params(req.params.as_ref())?;
                let cx = self.cx(req, conn, facts, None, AskState::default(), 0);
                let page = h.list_resource_templates(&cx, cursor.as_ref());
                self.list(&cx, page, "resourceTemplates", |t| t).await
            }
            Method::ResourcesRead if resources => {
                self.read_resource(req, conn, facts, params).await
            }
            Method::Complete if caps.completions.is_some() => {
                self.complete_method(req, conn, facts, params).await
            }
            m => Err(Error::method_not_found(m.as_str())),
        }
    }

    async fn list_tools(&self, req: &Request, conn: &Conn, facts: ClientFacts) -> Answered {
        let cursor = Cursor::from_params(req.params.as_ref())?;
        let legacy = !facts.revision.is_modern();
        let cx = self.cx(req, conn, facts, None, AskState::default(), 0);
        let page = self.handler.list_tools(&cx, cursor.as_ref());
        self.list(&cx, page, "tools", |mut t: Tool| {
            // 2025-11-25 requires an object root for `outputSchema`; such tools are listed
            // without one, and their results go out as content only.
            if legacy
                && t.output_schema
                    .as_ref()
                    .is_some_and(|s| s.get("type") != Some(&json!("object")))
            {
                t.output_schema = None;
            }
            t
        })
        .await
    }

    async fn call_tool(
        &self,
        req: &Request,
        conn: &Conn,
        facts: ClientFacts,
        params: &JsonObject,
    ) -> Answered {
        let name = string_param(Some(params), "name")?;
        let args = object_param(params, "arguments")?;
        let legacy = !facts.revision.is_modern();
        let bound = self.open_rounds(req, conn, &facts, name, args).await?;
        let arguments = owned_object(args);
        let (mut cx, binding) = self.round_cx(req, conn, facts, name, bound);
        cx.arguments = Some(arguments.clone());
        let out = match drive(&cx, self.handler.call_tool(&cx, name, arguments)).await {
            // A tool's panic is an execution error the model can read, not a protocol error.
            Driven::Panicked(msg) => {
                tracing::error!(tool = name, panic = %msg, "tool panicked");
                Driven::Done(Ok(CallToolResult::error(format!(
                    "Tool `{name}` failed with an internal error"
                ))))
            }
            other => other,
        };
        self.finish_rounds(&cx, binding, out, |mut r: CallToolResult| {
            if legacy
                && r.structured_content
                    .as_ref()
                    .is_some_and(|v| !v.is_object())
            {
                r.structured_content = None;
            }
            r
        })
    }

    async fn get_prompt(
        &self,
        req: &Request,
        conn: &Conn,
        facts: ClientFacts,
        params: &JsonObject,
    ) -> Answered {
        let name = string_param(Some(params), "name")?;
        let args = object_param(params, "arguments")?;
        let bound = self.open_rounds(req, conn, &facts, name, args).await?;
        let arguments = owned_object(args);
        let (cx, binding) = self.round_cx(req, conn, facts, name, bound);
        let out = drive(&cx, self.handler.get_prompt(&cx, name, arguments)).await;
        self.finish_rounds(&cx, binding, out, |r| r)
    }

    async fn read_resource(
        &self,
        req: &Request,
        conn: &Conn,
        facts: ClientFacts,
        params: &JsonObject,
    ) -> Answered {
        let uri = string_param(Some(params), "uri")?;
        let bound = self
            .open_rounds(req, conn, &facts, uri, &NO_ARGUMENTS)
            .await?;
        let (cx, binding) = self.round_cx(req, conn, facts, uri, bound);
        let out = drive(&cx, self.handler.read_resource(&cx, uri)).await;
        self.finish_rounds(&cx, binding, out, |r| r)
    }

    async fn complete_method(
        &self,
        req: &Request,
        conn: &Conn,
        facts: ClientFacts,
        params: &JsonObject,
    ) -> Answered {
        let request: CompleteRequest = serde_json::from_value(Value::Object(params.clone()))
            .map_err(|e| {
                Error::invalid_params(format!("Invalid completion request: {}", echo(e)))
            })?;
        let rev: Revision = facts.revision;
        let cx = self.cx(req, conn, facts, None, AskState::default(), 0);
        match drive(&cx, self.handler.complete(&cx, request)).await {
            Driven::Done(r) => self.complete(&req.method, rev, json!({ "completion": r? }), false),
            other => settle(other),
        }
    }

    /// Runs a list method (never multi-round) and answers its page as a cacheable result:
    /// `{key: [items], "nextCursor": ..}`, each item passed through `adjust` first.
    async fn list<T, F>(&self, cx: &Cx, fut: F, key: &str, adjust: impl FnMut(T) -> T) -> Answered
    where
        T: Serialize,
        F: Future<Output = Result<Page<T>, Error>>,
    {
        match drive(cx, fut).await {
            Driven::Done(page) => {
                let page = page?;
                let result = ListResult {
                    key,
                    items: page.items.into_iter().map(adjust).collect(),
                    next_cursor: page.next_cursor,
                };
                self.complete(&cx.method, cx.revision, result, false)
            }
            other => settle(other),
        }
    }
}

/// A list method's result, `{key: [items], "nextCursor": ..}`, serialised once (by
/// `complete`), never through an intermediate `Value`.
struct ListResult<'a, T> {
    key: &'a str,
    items: Vec<T>,
    next_cursor: Option<Cursor>,
}

impl<T: Serialize> Serialize for ListResult<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut map = s.serialize_map(Some(1 + usize::from(self.next_cursor.is_some())))?;
        map.serialize_entry(self.key, &self.items)?;
        if let Some(next) = &self.next_cursor {
            map.serialize_entry("nextCursor", next)?;
        }
        map.end()
    }
}

/// What a resource read binds its state to in place of arguments.
static NO_ARGUMENTS: Value = Value::Null;
