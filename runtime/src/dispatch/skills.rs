//! The Skills extension's methods (SEP-2640), at both revisions: `skills/list` and
//! `skills/get` when the server declares the extension, `resources/directory/read` when it
//! declares `directoryRead: true`; `-32601` otherwise, as for any method the server did not
//! declare. `skills/list` and `skills/get` are cacheable (`ttlMs`/`cacheScope` on 2026-07-28),
//! a directory read is a plain paged result.

use super::drive::{Driven, drive, settle};
use super::{Answered, ClientFacts, Conn, Engine, Parsed, string_param};
use crate::cx::AskState;
use crate::handler::Handler;
use crate::protocol::{
    Body, Error, GetSkillResult, Method, RequestId, cursor, serves_directory_read, serves_skills,
};
use std::pin::pin;

impl<H: Handler> Engine<H> {
    /// Serves `skills/list`, `skills/get` or `resources/directory/read`.
    pub(super) async fn skills(
        &self,
        id: RequestId,
        method: Method,
        body: Body,
        conn: &Conn,
        facts: ClientFacts,
    ) -> Answered {
        let caps = &self.config.info.capabilities;
        let params = match body {
            Body::Other(params) => params,
            _ => None,
        };
        let h = &*self.handler;
        match method {
            m @ Method::SkillsList if serves_skills(caps) => {
                let cursor = cursor(params)?;
                let cx = self.cx(Parsed::plain(id, m), conn, facts, AskState::default());
                let page = h.list_skills(&cx, cursor.as_ref());
                self.list(&cx, page, "skills").await
            }
            m @ Method::SkillsGet if serves_skills(caps) => {
                let uri = string_param(params.as_ref(), "uri")?.to_owned();
                let cx = self.cx(Parsed::plain(id, m), conn, facts, AskState::default());
                match drive(&cx, pin!(h.get_skill(&cx, &uri))).await {
                    Driven::Done(skill) => {
                        let result = GetSkillResult { skill: skill? };
                        self.complete(&cx.req.method, cx.req.revision, result, false)
                    }
                    other => settle(other),
                }
            }
            m @ Method::ResourcesDirectoryRead if serves_directory_read(caps) => {
                let uri = string_param(params.as_ref(), "uri")?.to_owned();
                let cursor = cursor(params)?;
                let cx = self.cx(Parsed::plain(id, m), conn, facts, AskState::default());
                let page = h.read_directory(&cx, &uri, cursor.as_ref());
                self.list(&cx, page, "resources").await
            }
            m => Err(Error::method_not_found(m.as_str())),
        }
    }
}
