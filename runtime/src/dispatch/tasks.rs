//! `tasks/get`, `tasks/update` and `tasks/cancel` (the tasks extension, 2026-07-28): served by
//! any instance from the task store, for the principal that created the task.

use super::task_run::{needs_tasks, store_error};
use super::{Answered, ClientFacts, Conn, Engine};
use crate::handler::Handler;
use crate::protocol::{self, Body, Error, Method, Params, Request, TASKS_EXTENSION};
use crate::tasks::wire::{TaskResult, not_found};
use crate::tasks::{TaskId, TaskStore};
use serde::Serialize;

/// The empty acknowledgement of `tasks/update` and `tasks/cancel`.
#[derive(Serialize)]
struct Ack {}

impl<H: Handler> Engine<H> {
    /// Serves a task method. In order: the server advertises the extension (else `-32601`),
    /// the request declared it (else `-32021`, before the params are looked at), the params,
    /// then the store with the request's principal: an id that is malformed, unknown, expired
    /// or another principal's is the same `-32602`.
    pub(super) async fn task_method(
        &self,
        req: Request,
        conn: &Conn,
        facts: ClientFacts,
    ) -> Answered {
        let Request { method, params, .. } = req;
        if !self.config.info.serves_tasks() {
            return Err(Error::method_not_found(method.as_str()));
        }
        if !facts.capabilities().declares_extension(TASKS_EXTENSION) {
            return Err(needs_tasks());
        }
        let Params {
            body: Body::Task(params),
            ..
        } = params
        else {
            return Err(Error::internal("a task method without task params"));
        };
        let params = params?;
        let id = TaskId::parse(&params.task_id).ok_or_else(not_found)?;
        let store = &*self.config.tasks.store;
        let principal = conn.principal.as_ref().map(|p| p.key());
        let now = self.config.clock.now_ms();
        let info = &self.config.info_text;
        match method {
            Method::TasksGet => {
                let record = store
                    .get(&id, principal, now)
                    .await
                    .map_err(store_error)?
                    .ok_or_else(not_found)?;
                protocol::write(&TaskResult::detailed(&record, info)).map(Some)
            }
            Method::TasksUpdate => {
                let answers = params.input_responses.unwrap_or_default();
                let added = store
                    .add_answers(&id, principal, answers, now)
                    .await
                    .map_err(store_error)?
                    .ok_or_else(not_found)?;
                tracing::debug!(task = %id, accepted = ?added.accepted, "task answers");
                self.complete(&method, facts.revision, Ack {}, true)
            }
            Method::TasksCancel => {
                store
                    .request_cancel(&id, principal, now)
                    .await
                    .map_err(store_error)?
                    .ok_or_else(not_found)?;
                self.complete(&method, facts.revision, Ack {}, true)
            }
            other => Err(Error::method_not_found(other.as_str())),
        }
    }
}
