//! [`Method`]: the JSON-RPC method of an inbound message, parsed once when the message is read.
//!
//! Everything after parsing dispatches on the typed value, and what a method implies (whether
//! its result is cacheable, whether it may ask the client for input, which param names its
//! target) is a property of the method, answered here and nowhere else.

use std::fmt;

/// Declares [`Method`] from one table of variants and wire names, so the parse and the
/// spelling can never disagree.
macro_rules! methods {
    ($($(#[doc = $doc:literal])+ $variant:ident => $name:literal,)+) => {
        /// A JSON-RPC method a server receives from a client, of either revision: the requests
        /// and notifications the protocol defines, or [`Method::Other`] for any other name
        /// (answered `-32601` when it is a request, ignored when it is a notification).
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Method {
            $($(#[doc = $doc])+ $variant,)+
            /// A method this crate does not know, as sent.
            Other(String),
        }

        impl Method {
            /// Parses a wire name; unknown names are [`Method::Other`].
            pub fn parse(name: &str) -> Method {
                match name {
                    $($name => Method::$variant,)+
                    other => Method::Other(other.to_owned()),
                }
            }

            /// The wire name.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Method::$variant => $name,)+
                    Method::Other(name) => name,
                }
            }
        }
    };
}

methods! {
    /// `initialize` (2025-11-25): opens a session.
    Initialize => "initialize",
    /// `ping` (2025-11-25).
    Ping => "ping",
    /// `server/discover` (2026-07-28).
    Discover => "server/discover",
    /// `tools/list`.
    ToolsList => "tools/list",
    /// `tools/call`.
    ToolsCall => "tools/call",
    /// `prompts/list`.
    PromptsList => "prompts/list",
    /// `prompts/get`.
    PromptsGet => "prompts/get",
    /// `resources/list`.
    ResourcesList => "resources/list",
    /// `resources/templates/list`.
    ResourceTemplatesList => "resources/templates/list",
    /// `resources/read`.
    ResourcesRead => "resources/read",
    /// `resources/subscribe` (2025-11-25).
    ResourcesSubscribe => "resources/subscribe",
    /// `resources/unsubscribe` (2025-11-25).
    ResourcesUnsubscribe => "resources/unsubscribe",
    /// `completion/complete`.
    Complete => "completion/complete",
    /// `logging/setLevel` (2025-11-25).
    SetLogLevel => "logging/setLevel",
    /// `subscriptions/listen` (2026-07-28): a long-lived stream of change notifications.
    Listen => "subscriptions/listen",
    /// `tasks/get` (the tasks extension, 2026-07-28): a task's state, and its result when done.
    TasksGet => "tasks/get",
    /// `tasks/update` (the tasks extension): answers to a task's questions.
    TasksUpdate => "tasks/update",
    /// `tasks/cancel` (the tasks extension).
    TasksCancel => "tasks/cancel",
    /// `skills/list` (the Skills extension, SEP-2640): the skills the server serves, paged.
    SkillsList => "skills/list",
    /// `skills/get` (the Skills extension): one skill's entry, by the URI of its `SKILL.md`.
    SkillsGet => "skills/get",
    /// `resources/directory/read` (the Skills extension's `directoryRead`): the children of a
    /// directory resource, paged.
    ResourcesDirectoryRead => "resources/directory/read",
    /// `notifications/initialized` (2025-11-25).
    Initialized => "notifications/initialized",
    /// `notifications/cancelled`.
    Cancelled => "notifications/cancelled",
    /// `notifications/progress`.
    Progress => "notifications/progress",
    /// `notifications/roots/list_changed` (2025-11-25).
    RootsListChanged => "notifications/roots/list_changed",
    /// `notifications/elicitation/complete` (2025-11-25, server to client): a URL-mode
    /// elicitation's out-of-band flow finished.
    ElicitationComplete => "notifications/elicitation/complete",
}

impl Method {
    /// Whether a complete 2026-07-28 result of this method carries `ttlMs` and `cacheScope`
    /// (MCP 2026-07-28 § Caching: discovery, the lists and `resources/read`; SEP-2640:
    /// `skills/list` and `skills/get`).
    pub fn is_cacheable(&self) -> bool {
        matches!(
            self,
            Method::Discover
                | Method::ToolsList
                | Method::PromptsList
                | Method::ResourcesList
                | Method::ResourceTemplatesList
                | Method::ResourcesRead
                | Method::SkillsList
                | Method::SkillsGet
        )
    }

    /// Whether a handler serving this method may ask the client for input (elicitation,
    /// sampling, roots): the methods that may answer `InputRequiredResult` on 2026-07-28.
    pub fn may_ask_for_input(&self) -> bool {
        matches!(
            self,
            Method::ToolsCall | Method::PromptsGet | Method::ResourcesRead
        )
    }

    /// The param naming what the request acts on (`name` of a tool or prompt, `uri` of a
    /// resource): bound into `requestState` and mirrored by the HTTP `Mcp-Name` header.
    pub fn target_param(&self) -> Option<&'static str> {
        match self {
            Method::ToolsCall | Method::PromptsGet => Some("name"),
            Method::ResourcesRead => Some("uri"),
            _ => None,
        }
    }
}

impl Method {
    /// Whether this is one of the tasks extension's methods (`tasks/get`, `tasks/update`,
    /// `tasks/cancel`), whose `params.taskId` the HTTP `Mcp-Name` header mirrors.
    pub fn is_task_method(&self) -> bool {
        matches!(
            self,
            Method::TasksGet | Method::TasksUpdate | Method::TasksCancel
        )
    }
}

impl Method {
    /// Whether this is one of the Skills extension's methods (`skills/list`, `skills/get`,
    /// `resources/directory/read`).
    pub fn is_skills_method(&self) -> bool {
        matches!(
            self,
            Method::SkillsList | Method::SkillsGet | Method::ResourcesDirectoryRead
        )
    }
}

impl From<&str> for Method {
    fn from(name: &str) -> Method {
        Method::parse(name)
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Method;

    #[test]
    fn names_round_trip_and_unknown_names_survive() {
        for name in ["tools/call", "server/discover", "notifications/cancelled"] {
            assert_eq!(Method::parse(name).as_str(), name);
        }
        let other = Method::parse("tools/Call");
        assert_eq!(other, Method::Other("tools/Call".into()));
        assert_eq!(other.to_string(), "tools/Call");
        assert!(Method::ResourcesRead.is_cacheable() && Method::ResourcesRead.may_ask_for_input());
        assert!(!Method::Complete.is_cacheable() && !Method::ToolsList.may_ask_for_input());
    }
}
