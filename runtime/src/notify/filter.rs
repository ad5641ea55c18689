//! Who hears which change: the honoured filter of one `subscriptions/listen` (2026-07-28
//! § Subscriptions) and the change kinds the server advertises, which bound every listener.

use super::Change;
use crate::protocol::{Error, JsonObject, MAX_URI_BYTES, ServerCapabilities, TASKS_EXTENSION};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// The notification kinds one listener receives.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Filter {
    tools: bool,
    prompts: bool,
    resources: bool,
    uris: BTreeSet<String>,
    /// The tasks to follow (`taskIds`, the tasks extension): as asked until the listener
    /// decides which it honours ([`Filter::honour_tasks`]).
    tasks: BTreeSet<String>,
}

impl Filter {
    /// Parses a `SubscriptionFilter` and keeps what `caps` advertise (the honoured subset). At
    /// most `max_uris` resource URIs, each at most [`MAX_URI_BYTES`] long, and at most
    /// `max_tasks` task ids (`-32602` otherwise); which of the task ids are honoured the caller
    /// decides ([`Filter::honour_tasks`]).
    pub(crate) fn honoured(
        raw: &Value,
        caps: &ServerCapabilities,
        max_uris: usize,
        max_tasks: usize,
    ) -> Result<Filter, Error> {
        let obj = raw
            .as_object()
            .ok_or_else(|| Error::invalid_params("`notifications` must be an object"))?;
        let flag = |key: &str| -> Result<bool, Error> {
            match obj.get(key) {
                None | Some(Value::Null) => Ok(false),
                Some(Value::Bool(b)) => Ok(*b),
                Some(_) => Err(Error::invalid_params(format!("`{key}` must be a boolean"))),
            }
        };
        let uris = strings(
            obj.get("resourceSubscriptions"),
            "resourceSubscriptions",
            max_uris,
            too_many_uris,
        )?;
        if uris.iter().any(|u: &String| u.len() > MAX_URI_BYTES) {
            return Err(uri_too_long());
        }
        let tasks = strings(obj.get("taskIds"), "taskIds", max_tasks, too_many_tasks)?;
        let adv = Advertised::of(caps);
        Ok(Filter {
            tools: flag("toolsListChanged")? && adv.tools,
            prompts: flag("promptsListChanged")? && adv.prompts,
            resources: flag("resourcesListChanged")? && adv.resources,
            uris: if adv.subscribe { uris } else { BTreeSet::new() },
            tasks: if adv.tasks { tasks } else { BTreeSet::new() },
        })
    }

    /// The task ids asked for, when the server serves tasks.
    pub(crate) fn asked_tasks(&self) -> &BTreeSet<String> {
        &self.tasks
    }

    /// Keeps only `honoured` of the task ids (those the listener may follow).
    pub(crate) fn honour_tasks(&mut self, honoured: BTreeSet<String>) {
        self.tasks = honoured;
    }

    /// The filter as the acknowledgement reports it (only honoured kinds).
    pub(crate) fn to_wire(&self) -> Value {
        let mut m = JsonObject::new();
        for (key, on) in [
            ("toolsListChanged", self.tools),
            ("promptsListChanged", self.prompts),
            ("resourcesListChanged", self.resources),
        ] {
            if on {
                m.insert(key.into(), json!(true));
            }
        }
        if !self.uris.is_empty() {
            m.insert("resourceSubscriptions".into(), json!(self.uris));
        }
        if !self.tasks.is_empty() {
            m.insert("taskIds".into(), json!(self.tasks));
        }
        Value::Object(m)
    }

    pub(crate) fn wants(&self, change: &Change) -> bool {
        match change {
            Change::ToolsListChanged => self.tools,
            Change::PromptsListChanged => self.prompts,
            Change::ResourcesListChanged => self.resources,
            Change::ResourceUpdated(uri) => self.uris.contains(uri),
        }
    }
}

/// `-32602`: a listener asked to follow more than `max` URIs.
pub(crate) fn too_many_uris(max: usize) -> Error {
    Error::invalid_params(format!(
        "Too many resource subscriptions: a listener follows at most {max} URIs on this server"
    ))
}

/// A list of strings under `key` (none when absent), at most `max` of them (`too_many`
/// otherwise).
fn strings(
    raw: Option<&Value>,
    key: &str,
    max: usize,
    too_many: fn(usize) -> Error,
) -> Result<BTreeSet<String>, Error> {
    let not_strings = || Error::invalid_params(format!("`{key}` must be an array of strings"));
    match raw {
        None | Some(Value::Null) => Ok(BTreeSet::new()),
        Some(Value::Array(a)) if a.len() > max => Err(too_many(max)),
        Some(Value::Array(a)) => a
            .iter()
            .map(|u| u.as_str().map(str::to_owned))
            .collect::<Option<_>>()
            .ok_or_else(not_strings),
        Some(_) => Err(not_strings()),
    }
}

/// `-32602`: a listener asked to follow more than `max` tasks.
pub(crate) fn too_many_tasks(max: usize) -> Error {
    Error::invalid_params(format!(
        "Too many task ids: a listener follows at most {max} tasks on this server"
    ))
}

/// `-32602`: a URI to follow is longer than [`MAX_URI_BYTES`].
pub(crate) fn uri_too_long() -> Error {
    Error::invalid_params(format!(
        "A resource URI to follow is longer than {MAX_URI_BYTES} bytes"
    ))
}

/// Which change kinds the server advertises.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Advertised {
    pub tools: bool,
    pub prompts: bool,
    pub resources: bool,
    pub subscribe: bool,
    /// The tasks extension (`notifications/tasks` for followed task ids).
    pub tasks: bool,
}

impl Advertised {
    pub(crate) fn of(caps: &ServerCapabilities) -> Advertised {
        let on = |v: Option<bool>| v == Some(true);
        let res = caps.resources.as_ref();
        Advertised {
            tools: on(caps.tools.as_ref().and_then(|t| t.list_changed)),
            prompts: on(caps.prompts.as_ref().and_then(|p| p.list_changed)),
            resources: on(res.and_then(|r| r.list_changed)),
            subscribe: on(res.and_then(|r| r.subscribe)),
            tasks: caps
                .extensions
                .as_ref()
                .is_some_and(|e| e.contains_key(TASKS_EXTENSION)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server_info::ServerInfo;

    #[test]
    fn only_advertised_kinds_are_honoured() {
        let caps = ServerInfo::new("t", "1")
            .with_tools_list_changed()
            .with_prompts()
            .capabilities;
        let raw = json!({"toolsListChanged": true, "promptsListChanged": true,
                         "resourceSubscriptions": ["a://b"]});
        let f = Filter::honoured(&raw, &caps, 8, 8).unwrap();
        assert_eq!(f.to_wire(), json!({"toolsListChanged": true}));
        assert!(f.wants(&Change::ToolsListChanged));
        assert!(!f.wants(&Change::PromptsListChanged));
        assert!(Filter::honoured(&json!({"toolsListChanged": 1}), &caps, 8, 8).is_err());
    }

    #[test]
    fn task_ids_are_bounded_and_kept_only_by_a_server_of_tasks() {
        let ids = json!({"taskIds": ["a", "b", "a"]});
        let plain = ServerInfo::new("t", "1").with_tools().capabilities;
        let f = Filter::honoured(&ids, &plain, 8, 8).unwrap();
        assert!(f.asked_tasks().is_empty() && f.to_wire() == json!({}));
        let caps = ServerInfo::new("t", "1").with_tasks().capabilities;
        let mut f = Filter::honoured(&ids, &caps, 8, 3).unwrap();
        assert_eq!(f.asked_tasks().len(), 2, "one id once");
        f.honour_tasks(["b".to_owned()].into());
        assert_eq!(f.to_wire(), json!({"taskIds": ["b"]}));
        let e = Filter::honoured(&json!({"taskIds": ["a", "b", "c"]}), &caps, 8, 2).unwrap_err();
        assert!(e.message.contains("at most 2 tasks"), "{}", e.message);
        assert!(Filter::honoured(&json!({"taskIds": [1]}), &caps, 8, 8).is_err());
    }
}
