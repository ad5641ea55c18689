//! Who hears which change: the honoured filter of one `subscriptions/listen` (2026-07-28
//! § Subscriptions) and the change kinds the server advertises, which bound every listener.

use super::Change;
use crate::protocol::{Error, JsonObject, MAX_URI_BYTES, ServerCapabilities};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// The notification kinds one listener receives.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Filter {
    tools: bool,
    prompts: bool,
    resources: bool,
    uris: BTreeSet<String>,
}

impl Filter {
    /// Parses a `SubscriptionFilter` and keeps what `caps` advertise (the honoured subset). At
    /// most `max_uris` resource URIs, each at most [`MAX_URI_BYTES`] long (`-32602` otherwise).
    pub(crate) fn honoured(
        raw: &Value,
        caps: &ServerCapabilities,
        max_uris: usize,
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
        let uris = match obj.get("resourceSubscriptions") {
            None | Some(Value::Null) => BTreeSet::new(),
            Some(Value::Array(a)) if a.len() > max_uris => {
                return Err(too_many_uris(max_uris));
            }
            Some(Value::Array(a)) => a
                .iter()
                .map(|u| u.as_str().map(str::to_owned))
                .collect::<Option<_>>()
                .ok_or_else(|| {
                    Error::invalid_params("`resourceSubscriptions` must be an array of strings")
                })?,
            Some(_) => {
                return Err(Error::invalid_params(
                    "`resourceSubscriptions` must be an array of strings",
                ));
            }
        };
        if uris.iter().any(|u: &String| u.len() > MAX_URI_BYTES) {
            return Err(uri_too_long());
        }
        let adv = Advertised::of(caps);
        Ok(Filter {
            tools: flag("toolsListChanged")? && adv.tools,
            prompts: flag("promptsListChanged")? && adv.prompts,
            resources: flag("resourcesListChanged")? && adv.resources,
            uris: if adv.subscribe { uris } else { BTreeSet::new() },
        })
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
        let f = Filter::honoured(&raw, &caps, 8).unwrap();
        assert_eq!(f.to_wire(), json!({"toolsListChanged": true}));
        assert!(f.wants(&Change::ToolsListChanged));
        assert!(!f.wants(&Change::PromptsListChanged));
        assert!(Filter::honoured(&json!({"toolsListChanged": 1}), &caps, 8).is_err());
    }
}
