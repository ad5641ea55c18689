//! The tasks extension from the test client's side: declaring it, following a task to its end
//! by polling `tasks/get` and answering its questions from the script through `tasks/update`.

use super::{Call, TestClient, TestClientBuilder};
use crate::protocol::{Error, JsonObject, TASKS_EXTENSION};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::panic::Location;
use std::time::Duration;

/// How many polls [`TestClient::follow_task`] makes before it fails the call.
const MAX_POLLS: u32 = 10_000;

impl<H> TestClientBuilder<H> {
    /// Declares the tasks extension (`io.modelcontextprotocol/tasks`) in every request's
    /// capabilities, besides those given to [`capabilities`](Self::capabilities) (call this
    /// after it).
    pub fn with_tasks(mut self) -> Self {
        self.capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .insert(TASKS_EXTENSION.to_owned(), json!({}));
        self
    }
}

impl Call {
    /// The task's id, when the call was answered with a task (`resultType: "task"`).
    pub fn task_id(&self) -> Option<&str> {
        (self.result.get("resultType").and_then(Value::as_str) == Some("task"))
            .then(|| self.result.get("taskId").and_then(Value::as_str))
            .flatten()
    }
}

impl TestClient {
    /// `tasks/get`: the task as the server reports it.
    #[track_caller]
    pub fn tasks_get(
        &self,
        task_id: &str,
    ) -> impl std::future::Future<Output = Result<Value, Error>> + Send + '_ {
        self.request("tasks/get", json!({ "taskId": task_id }))
    }

    /// `tasks/update` with these `inputResponses`.
    #[track_caller]
    pub fn tasks_update(
        &self,
        task_id: &str,
        responses: Value,
    ) -> impl std::future::Future<Output = Result<Value, Error>> + Send + '_ {
        self.request(
            "tasks/update",
            json!({ "taskId": task_id, "inputResponses": responses }),
        )
    }

    /// `tasks/cancel`.
    #[track_caller]
    pub fn tasks_cancel(
        &self,
        task_id: &str,
    ) -> impl std::future::Future<Output = Result<Value, Error>> + Send + '_ {
        self.request("tasks/cancel", json!({ "taskId": task_id }))
    }

    /// Follows the task `task_id` to its end: polls `tasks/get` at its `pollIntervalMs`
    /// (tokio time, so a test with paused time runs at once), answers each question it shows
    /// from the script through `tasks/update` (each key once, as the extension asks of
    /// clients), and returns the inlined result of a `completed` task, the inlined error of a
    /// `failed` one, or, for a `cancelled` task or one waiting for a question the script has no
    /// answer for (a real client would stop there too), its last `tasks/get` as the result.
    #[track_caller]
    pub fn follow_task(
        &self,
        task_id: &str,
    ) -> impl std::future::Future<Output = Result<Call, Error>> + Send + '_ {
        self.follow_task_within(Location::caller(), task_id, u32::MAX)
    }

    /// [`TestClient::follow_task`], sending at most `max_updates` `tasks/update`s: a task still
    /// asking after them ends the follow, its last `tasks/get` as the result (the sweep's
    /// client gives up there, as it does after its rounds of a multi-round call).
    pub(crate) fn follow_task_within(
        &self,
        at: &'static Location<'static>,
        task_id: &str,
        max_updates: u32,
    ) -> impl std::future::Future<Output = Result<Call, Error>> + Send + '_ {
        let task_id = task_id.to_owned();
        async move {
            let mut answered = BTreeSet::new();
            let mut updates = 0;
            for polls in 1..=MAX_POLLS {
                let task = self
                    .exchange(
                        at,
                        "tasks/get",
                        self.with_meta(json!({ "taskId": task_id })),
                    )
                    .await?;
                match task.get("status").and_then(Value::as_str) {
                    Some("completed") => {
                        let result = task.get("result").cloned().unwrap_or(Value::Null);
                        return Ok(Call {
                            result,
                            rounds: polls,
                        });
                    }
                    Some("failed") => {
                        let error = task.get("error").cloned().unwrap_or(Value::Null);
                        return Err(serde_json::from_value(error)
                            .unwrap_or_else(|e| Error::internal(e.to_string())));
                    }
                    Some("cancelled") => {
                        return Ok(Call {
                            result: task,
                            rounds: polls,
                        });
                    }
                    _ => {}
                }
                let asked = task.get("inputRequests").and_then(Value::as_object);
                let fresh = asked.is_some_and(|m| m.keys().any(|k| !answered.contains(k)));
                if fresh && updates >= max_updates {
                    return Ok(Call {
                        result: task,
                        rounds: polls,
                    });
                }
                let mut responses = JsonObject::new();
                for (key, req) in asked.into_iter().flatten() {
                    if answered.contains(key) {
                        continue;
                    }
                    let method = req
                        .get("method")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    if let Some(Some(Ok(v))) = self
                        .shared
                        .take_reply(method, Some(key), req.get("params").unwrap_or(&Value::Null))
                        .map(|r| r.to_value())
                    {
                        answered.insert(key.clone());
                        responses.insert(key.clone(), v);
                    }
                }
                if !responses.is_empty() {
                    let params = json!({ "taskId": task_id, "inputResponses": responses });
                    self.exchange(at, "tasks/update", self.with_meta(params))
                        .await?;
                    updates += 1;
                    continue;
                }
                let unanswerable = asked.is_some_and(|m| m.keys().any(|k| !answered.contains(k)));
                if unanswerable {
                    return Ok(Call {
                        result: task,
                        rounds: polls,
                    });
                }
                let every = task
                    .get("pollIntervalMs")
                    .and_then(Value::as_u64)
                    .unwrap_or(1000);
                tokio::time::sleep(Duration::from_millis(every)).await;
            }
            Err(Error::internal(format!(
                "the task was not done after {MAX_POLLS} polls"
            )))
        }
    }
}
