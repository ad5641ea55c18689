//! The tasks extension (2026-07-28) as an [`Extension`] built with the public API:
//! `tasks/get`, `tasks/update` and `tasks/cancel`, served by any instance from the task store,
//! for the principal that created the task.
//!
//! The engine registers it when the handler advertises tasks (`custom::built_in`). The
//! extension requires the request to declare it (`-32021` before the params are looked at)
//! and is 2026-07-28's only; then the params, then the store with the request's principal: an
//! id that is malformed, unknown, expired or another principal's is the same `-32602`.

use super::task_run::store_error;
use crate::cx::Cx;
use crate::extension::{CustomMethod, Extension};
use crate::protocol::{Error, JsonObject, Method, TASKS_EXTENSION, TaskParams};
use crate::tasks::wire::{TaskResult, not_found};
use crate::tasks::{TaskId, TaskStore};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The empty acknowledgement of `tasks/update` and `tasks/cancel`.
#[derive(Serialize)]
struct Ack {}

/// The params of `tasks/get` and `tasks/cancel`: `taskId`.
#[derive(Deserialize)]
#[serde(try_from = "JsonObject")]
struct TaskRef(TaskParams);

/// The params of `tasks/update`: `taskId` and `inputResponses`.
#[derive(Deserialize)]
#[serde(try_from = "JsonObject")]
struct TaskUpdate(TaskParams);

impl TryFrom<JsonObject> for TaskRef {
    type Error = String;
    fn try_from(obj: JsonObject) -> Result<Self, String> {
        TaskParams::read(&Method::TasksGet, obj)
            .map(TaskRef)
            .map_err(|e| e.message)
    }
}

impl TryFrom<JsonObject> for TaskUpdate {
    type Error = String;
    fn try_from(obj: JsonObject) -> Result<Self, String> {
        TaskParams::read(&Method::TasksUpdate, obj)
            .map(TaskUpdate)
            .map_err(|e| e.message)
    }
}

/// The tasks extension with its settings as the server info declares them (`{}`).
pub(super) fn extension(settings: JsonObject) -> Extension {
    Extension::new(TASKS_EXTENSION)
        .settings(settings)
        .client_must_declare()
        .modern_only()
        .method(CustomMethod::new("tasks/get", |cx: &Cx, p: TaskRef| {
            Box::pin(get(cx, p.0))
        }))
        .method(CustomMethod::new(
            "tasks/update",
            |cx: &Cx, p: TaskUpdate| Box::pin(update(cx, p.0)),
        ))
        .method(CustomMethod::new("tasks/cancel", |cx: &Cx, p: TaskRef| {
            Box::pin(cancel(cx, p.0))
        }))
}

/// The task's id, when it is one (any other is the unknown task's `-32602`).
fn task_id(params: &TaskParams) -> Result<TaskId, Error> {
    TaskId::parse(&params.task_id).ok_or_else(not_found)
}

/// `tasks/get`: the `DetailedTask`, with its result when it is done.
async fn get(cx: &Cx, params: TaskParams) -> Result<Value, Error> {
    let id = task_id(&params)?;
    let config = &cx.req.config;
    let principal = cx.principal().map(|p| p.key());
    let record = config
        .tasks
        .store
        .get(&id, principal, cx.now_ms())
        .await
        .map_err(store_error)?
        .ok_or_else(not_found)?;
    serde_json::to_value(TaskResult::detailed(&record, &config.info_text))
        .map_err(|e| Error::internal(e.to_string()))
}

/// `tasks/update`: answers to the task's questions.
async fn update(cx: &Cx, params: TaskParams) -> Result<Ack, Error> {
    let id = task_id(&params)?;
    let principal = cx.principal().map(|p| p.key());
    let answers = params.input_responses.unwrap_or_default();
    let added = cx
        .req
        .config
        .tasks
        .store
        .add_answers(&id, principal, answers, cx.now_ms())
        .await
        .map_err(store_error)?
        .ok_or_else(not_found)?;
    tracing::debug!(task = %id, accepted = ?added.accepted, "task answers");
    Ok(Ack {})
}

/// `tasks/cancel`: asks the task's runner to stop it.
async fn cancel(cx: &Cx, params: TaskParams) -> Result<Ack, Error> {
    let id = task_id(&params)?;
    let principal = cx.principal().map(|p| p.key());
    cx.req
        .config
        .tasks
        .store
        .request_cancel(&id, principal, cx.now_ms())
        .await
        .map_err(store_error)?
        .ok_or_else(not_found)?;
    Ok(Ack {})
}
