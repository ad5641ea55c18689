//! The methods both revisions share: lists, `tools/call`, `prompts/get`, `resources/read` and
//! `completion/complete`, each gated by the capability the server advertises (`-32601` if not).

use super::drive::{Driven, drive, settle};
use super::task_run::{TaskCall, needs_tasks};
use super::{Answered, ClientFacts, Conn, Engine, Parsed};
use crate::cx::{AskState, Cx};
use crate::handler::Handler;
use crate::protocol::{
    Body, CallToolResult, Cursor, Error, GetPromptResult, Method, Page, Params, ReadResourceResult,
    Request, RequestId, Shape,
};
use futures_util::future::Either;
use serde::Serialize;
use serde_json::json;
use std::future::Future;
use std::pin::pin;

impl<H: Handler> Engine<H> {
    /// Routes a method both revisions share. Not an `async fn`: a synchronous `tools/call`
    /// with well-formed params, the request nearly every server serves most, gets its rounds
    /// future unwrapped; every other method is served boxed by [`Engine::other_method`]. An
    /// `async fn` would keep `req` twice (as its argument and as what it is destructured
    /// into) next to the largest arm's future, and this future is held for every request in
    /// flight (design §23).
    pub(super) fn method<'a>(
        &'a self,
        req: Request,
        conn: &'a Conn,
        facts: ClientFacts,
    ) -> impl Future<Output = Answered> + Send + 'a {
        let Request { id, method, params } = req;
        // `_meta` was read into `facts`; its tree is not kept for the rest of the request.
        let Params { meta, body } = params;
        drop(meta);
        let tools = self.config.info.capabilities.tools.is_some();
        match (method, body) {
            (m @ Method::ToolsCall, Body::Target(Ok(p)))
                if tools && matches!(self.task_call(&facts, &p.target), TaskCall::Sync) =>
            {
                Either::Left(self.rounds::<CallToolResult>(id, m, conn, facts, p))
            }
            (m, body) => Either::Right(Box::pin(self.other_method(id, m, body, conn, facts))),
        }
    }

    /// Routes every method [`Engine::method`] does not take itself.
    async fn other_method(
        &self,
        id: RequestId,
        method: Method,
        body: Body,
        conn: &Conn,
        facts: ClientFacts,
    ) -> Answered {
        let caps = &self.config.info.capabilities;
        let (tools, prompts, resources) = (
            caps.tools.is_some(),
            caps.prompts.is_some(),
            caps.resources.is_some(),
        );
        let h = &*self.handler;
        match (method, body) {
            (m @ Method::ToolsList, Body::List(cursor)) if tools => {
                let cursor = cursor?;
                let cx = self.cx(Parsed::plain(id, m), conn, facts, AskState::default());
                let page = h.list_tools(&cx, cursor.as_ref());
                self.list(&cx, page, "tools").await
            }
            (m @ Method::PromptsList, Body::List(cursor)) if prompts => {
                let cursor = cursor?;
                let cx = self.cx(Parsed::plain(id, m), conn, facts, AskState::default());
                let page = h.list_prompts(&cx, cursor.as_ref());
                self.list(&cx, page, "prompts").await
            }
            (m @ Method::ResourcesList, Body::List(cursor)) if resources => {
                let cursor = cursor?;
                let cx = self.cx(Parsed::plain(id, m), conn, facts, AskState::default());
                let page = h.list_resources(&cx, cursor.as_ref());
                self.list(&cx, page, "resources").await
            }
            (m @ Method::ResourceTemplatesList, Body::List(cursor)) if resources => {
                let cursor = cursor?;
                let cx = self.cx(Parsed::plain(id, m), conn, facts, AskState::default());
                let page = h.list_resource_templates(&cx, cursor.as_ref());
                self.list(&cx, page, "resourceTemplates").await
            }
            (m @ Method::ToolsCall, Body::Target(p)) if tools => {
                let p = p?;
                match self.task_call(&facts, &p.target) {
                    TaskCall::Sync => self.rounds::<CallToolResult>(id, m, conn, facts, p).await,
                    TaskCall::Refuse => Err(needs_tasks()),
                    TaskCall::Task(start) => self.call_as_task(id, m, conn, facts, p, start).await,
                }
            }
            (m @ Method::PromptsGet, Body::Target(p)) if prompts => {
                self.rounds::<GetPromptResult>(id, m, conn, facts, p?).await
            }
            (m @ Method::ResourcesRead, Body::Target(p)) if resources => {
                self.rounds::<ReadResourceResult>(id, m, conn, facts, p?)
                    .await
            }
            (m @ Method::Complete, Body::Complete(request)) if caps.completions.is_some() => {
                let request = request?;
                let rev = facts.revision;
                let cx = self.cx(Parsed::plain(id, m), conn, facts, AskState::default());
                match drive(&cx, pin!(h.complete(&cx, request))).await {
                    Driven::Done(r) => {
                        self.complete(&cx.req.method, rev, json!({ "completion": r? }), false)
                    }
                    other => settle(other),
                }
            }
            (m, body) if m.is_skills_method() => self.skills(id, m, body, conn, facts).await,
            (m, _) => Err(Error::method_not_found(m.as_str())),
        }
    }

    /// Runs a list method (never multi-round) and answers its page as a cacheable result:
    /// `{key: [items], "nextCursor": ..}`, each item shaped for the request's revision.
    pub(super) async fn list<T, F>(&self, cx: &Cx, fut: F, key: &str) -> Answered
    where
        T: Serialize + Shape,
        F: Future<Output = Result<Page<T>, Error>>,
    {
        match drive(cx, pin!(fut)).await {
            Driven::Done(page) => {
                let mut page = page?;
                page.items.shape(cx.req.revision);
                let result = ListResult {
                    key,
                    items: page.items,
                    next_cursor: page.next_cursor,
                };
                // A list filtered by the caller's token is theirs alone.
                let private = cx.lists_filtered();
                self.complete(&cx.req.method, cx.req.revision, result, private)
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
