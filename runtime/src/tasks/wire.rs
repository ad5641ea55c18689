//! A [`TaskRecord`] as the tasks extension writes it: the `CreateTaskResult` that answers a
//! `tools/call` (`resultType: "task"`), and the `DetailedTask` of `tasks/get` (the result or
//! the error inlined when terminal, the outstanding `inputRequests` while `input_required`).

use super::{Outcome, TaskRecord, TaskStatus};
use crate::protocol::{self, Error, JsonObject, Message, ResultMeta, meta};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::time::{Duration, UNIX_EPOCH};

/// The error of `tasks/get`, `tasks/update` and `tasks/cancel` for an id that names no task
/// of this principal: unknown, malformed, expired or another principal's, all alike.
pub(crate) fn not_found() -> Error {
    Error::invalid_params("Failed to retrieve task: Task not found")
}

/// One task on the wire, with the 2026-07-28 result envelope.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TaskResult<'a> {
    result_type: &'static str,
    #[serde(flatten)]
    task: Detailed<'a>,
    #[serde(rename = "_meta")]
    meta: ResultMeta<'a>,
}

/// A task's own fields and what its status carries: the `DetailedTask` of `tasks/get` and of
/// `notifications/tasks`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Detailed<'a> {
    task_id: &'a str,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    status_message: Option<&'a str>,
    created_at: String,
    last_updated_at: String,
    ttl_ms: u64,
    poll_interval_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    input_requests: Option<&'a JsonObject>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a Error>,
}

impl<'a> Detailed<'a> {
    /// What the status carries: the pending questions while `input_required`, the result
    /// once `completed`, the error once `failed`.
    fn of(record: &'a TaskRecord) -> Self {
        let (result, error) = match &record.outcome {
            Some(Outcome::Success(v)) if record.status == TaskStatus::Completed => (Some(v), None),
            Some(Outcome::Error(e)) if record.status == TaskStatus::Failed => (None, Some(e)),
            _ => (None, None),
        };
        let input_requests = (record.status == TaskStatus::InputRequired
            && !record.pending.is_empty())
        .then_some(&record.pending);
        Detailed {
            task_id: record.id.as_str(),
            status: record.status.as_str(),
            status_message: record.status_message.as_deref(),
            created_at: timestamp(record.created_at_ms),
            last_updated_at: timestamp(record.last_updated_at_ms),
            ttl_ms: record.ttl_ms,
            poll_interval_ms: record.poll_interval_ms.max(1),
            input_requests,
            result,
            error,
        }
    }
}

impl<'a> TaskResult<'a> {
    /// The answer to the `tools/call` that created `record`: `resultType: "task"` and the
    /// task's own fields, nothing inlined.
    pub(crate) fn created(record: &'a TaskRecord, server: &'a RawValue) -> Self {
        let mut t = TaskResult::detailed(record, server);
        t.result_type = "task";
        let d = &mut t.task;
        (d.input_requests, d.result, d.error) = (None, None, None);
        t
    }

    /// The answer to `tasks/get`: the `DetailedTask`.
    pub(crate) fn detailed(record: &'a TaskRecord, server: &'a RawValue) -> Self {
        TaskResult {
            result_type: "complete",
            task: Detailed::of(record),
            meta: ResultMeta {
                server_info: server,
                subscription_id: None,
            },
        }
    }
}

/// The method of a task's status notification on a listen stream.
pub(crate) const NOTIFICATION: &str = "notifications/tasks";

/// The `notifications/tasks` that tells the listen stream `subscription` where `record`
/// stands: the `DetailedTask` `tasks/get` would answer now (no result envelope), with the
/// stream's id in `_meta`, as every notification on a listen stream carries it.
pub(crate) fn notification(record: &TaskRecord, subscription: &Value) -> Message {
    #[derive(Serialize)]
    struct Params<'a> {
        #[serde(flatten)]
        task: Detailed<'a>,
        #[serde(rename = "_meta")]
        meta: Value,
    }
    let params = Params {
        task: Detailed::of(record),
        meta: json!({ meta::SUBSCRIPTION_ID: subscription }),
    };
    let params = serde_json::to_value(params).unwrap_or_else(|_| json!({}));
    protocol::notification(NOTIFICATION, params)
}

/// ms since the epoch as an RFC 3339 UTC timestamp with milliseconds
/// (`2026-12-02T04:30:00.000Z`).
pub(crate) fn timestamp(ms: u64) -> String {
    humantime::format_rfc3339_millis(UNIX_EPOCH + Duration::from_millis(ms)).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Implementation;
    use crate::tasks::{Lease, TaskRecord};

    fn record() -> TaskRecord {
        let lease = Lease {
            owner: "me".into(),
            until_ms: 2_000,
        };
        TaskRecord::new(None, "slow", 1_000, 60_000, 500, lease)
    }

    #[test]
    fn timestamps_are_rfc_3339_utc_with_milliseconds() {
        assert_eq!(timestamp(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(timestamp(1_796_358_600_123), "2026-12-04T04:30:00.123Z");
    }

    #[test]
    fn a_created_task_carries_its_fields_and_nothing_inlined() {
        let info = protocol::info_text(&Implementation::new("s", "1"));
        let mut r = record();
        r.outcome = Some(Outcome::Success(json!({"content": []})));
        let v = serde_json::to_value(TaskResult::created(&r, &info)).unwrap();
        assert_eq!(v["resultType"], "task");
        assert_eq!(v["taskId"], r.id.as_str());
        assert_eq!(v["status"], "working");
        assert_eq!(v["ttlMs"], 60_000);
        assert_eq!(v["pollIntervalMs"], 500);
        assert_eq!(v["createdAt"], "1970-01-01T00:00:01.000Z");
        assert_eq!(
            v["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
            "s"
        );
        for absent in [
            "result",
            "error",
            "inputRequests",
            "requestState",
            "task",
            "ttl",
        ] {
            assert!(v.get(absent).is_none(), "{absent}: {v}");
        }
    }

    #[test]
    fn a_detailed_task_inlines_what_its_status_carries() {
        let info = protocol::info_text(&Implementation::new("s", "1"));
        let mut r = record();
        r.status = TaskStatus::InputRequired;
        r.asked.insert("q".into());
        r.pending
            .insert("q".into(), json!({"method": "roots/list"}));
        let v = serde_json::to_value(TaskResult::detailed(&r, &info)).unwrap();
        assert_eq!(v["resultType"], "complete");
        assert_eq!(v["inputRequests"]["q"]["method"], "roots/list");
        r.pending.clear();
        r.status = TaskStatus::Completed;
        r.outcome = Some(Outcome::Success(json!({"content": [], "isError": true})));
        let v = serde_json::to_value(TaskResult::detailed(&r, &info)).unwrap();
        assert_eq!(v["result"]["isError"], true);
        assert!(v.get("error").is_none() && v.get("inputRequests").is_none());
        r.status = TaskStatus::Failed;
        r.outcome = Some(Outcome::Error(Error::internal("boom")));
        let v = serde_json::to_value(TaskResult::detailed(&r, &info)).unwrap();
        assert_eq!(v["error"]["message"], "boom");
        assert!(v.get("result").is_none());
    }

    #[test]
    fn a_notification_is_the_detailed_task_with_the_subscription_id() {
        let info = protocol::info_text(&Implementation::new("s", "1"));
        let mut r = record();
        r.status = TaskStatus::Completed;
        r.outcome = Some(Outcome::Success(json!({"content": []})));
        let m = notification(&r, &json!("sub")).to_value();
        assert_eq!(m["method"], "notifications/tasks");
        let p = &m["params"];
        assert_eq!(p["_meta"], json!({ meta::SUBSCRIPTION_ID: "sub" }));
        assert!(
            p.get("resultType").is_none(),
            "a notification has no result envelope"
        );
        let mut got = serde_json::to_value(TaskResult::detailed(&r, &info)).unwrap();
        let got = got.as_object_mut().unwrap();
        got.remove("resultType");
        got.insert("_meta".into(), p["_meta"].clone());
        assert_eq!(p, &Value::Object(got.clone()), "what tasks/get answers");
    }
}
