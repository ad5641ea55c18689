//! [`RegistryError`]: why a change to a router's tools, prompts or resources was refused.

use std::fmt;

/// The kind of item a change names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ItemKind {
    /// A tool, named by its name.
    Tool,
    /// A prompt, named by its name.
    Prompt,
    /// A resource or resource template, named by its URI or URI template as declared.
    Resource,
}

impl ItemKind {
    /// What names an item of this kind: `tool name`, `prompt name`, `resource URI`.
    fn key(self) -> &'static str {
        match self {
            ItemKind::Tool => "tool name",
            ItemKind::Prompt => "prompt name",
            ItemKind::Resource => "resource URI",
        }
    }
}

/// Why a change to a [`Registry`](crate::Registry) was refused. A refused change changes
/// nothing (every part of an [`Edit`](crate::Edit) is checked before any is made) and announces
/// nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegistryError {
    /// An item of that name (or URI) is already served, or the change adds it twice. Nothing is
    /// replaced in silence: remove the live one first, in the same [`Edit`](crate::Edit) to make
    /// the swap one change.
    Taken {
        /// What kind of item.
        kind: ItemKind,
        /// The name or URI.
        key: String,
    },
    /// No item of that name (or URI) is served.
    Unknown {
        /// What kind of item.
        kind: ItemKind,
        /// The name or URI.
        key: String,
    },
    /// The tool may run as a task, and the server does not advertise the tasks extension: a
    /// server's capabilities are fixed when it starts. Add the tool when the router is built
    /// ([`Router::tools`](crate::Router::tools) advertises the extension), or advertise it
    /// ([`ServerInfo::with_tasks`](crate::ServerInfo::with_tasks)).
    TasksNotAdvertised {
        /// The tool's name.
        tool: String,
    },
}

impl RegistryError {
    pub(crate) fn taken(kind: ItemKind, key: &str) -> RegistryError {
        RegistryError::Taken {
            kind,
            key: key.to_owned(),
        }
    }
    pub(crate) fn unknown(kind: ItemKind, key: &str) -> RegistryError {
        RegistryError::Unknown {
            kind,
            key: key.to_owned(),
        }
    }
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegistryError::Taken { kind, key } => write!(
                f,
                "duplicate {} `{key}`: this router already serves one (remove it first to replace it)",
                kind.key()
            ),
            RegistryError::Unknown { kind, key } => {
                write!(f, "no {} `{key}` is served by this router", kind.key())
            }
            RegistryError::TasksNotAdvertised { tool } => write!(
                f,
                "the tool `{tool}` may run as a task, and this server does not advertise the tasks \
                 extension: add it when the router is built, or advertise the extension with \
                 `ServerInfo::with_tasks`"
            ),
        }
    }
}

impl std::error::Error for RegistryError {}
