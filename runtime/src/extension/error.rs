//! [`ExtensionError`]: why a custom method or an extension was refused.

use std::fmt;

/// Why [`Server::try_method`](crate::Server::try_method) or
/// [`Server::try_extension`](crate::Server::try_extension) refused a method or an extension
/// (`Server::method` and `Server::extension` panic with this message).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExtensionError {
    /// The name is a core method's (`tools/call`, `initialize`).
    Core {
        /// The name.
        name: String,
    },
    /// The name is in a namespace of the core protocol (`tools/`, `notifications/`) or
    /// JSON-RPC's (`rpc.`).
    Reserved {
        /// The name.
        name: String,
        /// The namespace it is in.
        namespace: String,
    },
    /// The name has no namespace of its own (`reindex` rather than `acme/reindex`).
    NoNamespace {
        /// The name.
        name: String,
    },
    /// The name is a method of an extension the protocol defines, registered by another.
    ExtensionMethod {
        /// The name.
        name: String,
        /// The extension it belongs to.
        extension: &'static str,
    },
    /// The method, or the extension, is already served by this server.
    Taken {
        /// The method's name or the extension's id.
        name: String,
    },
    /// The extension id has no prefix (`com.acme/echo`).
    BadId {
        /// The id.
        id: String,
    },
}

impl fmt::Display for ExtensionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtensionError::Core { name } => write!(
                f,
                "`{name}` is a core method of MCP: a custom method needs a name of its own, in \
                 a namespace of its own (`acme/{name}`)"
            ),
            ExtensionError::Reserved { name, namespace } => write!(
                f,
                "`{name}` is in the namespace `{namespace}`, which the protocol keeps for its \
                 own methods: put it in a namespace of its own (`acme/...`)"
            ),
            ExtensionError::NoNamespace { name } => write!(
                f,
                "`{name}` has no namespace: a custom method's name is in a namespace of its \
                 own, `acme/{}`",
                name.trim_start_matches('/')
            ),
            ExtensionError::ExtensionMethod { name, extension } => write!(
                f,
                "`{name}` is a method of the extension {extension}: only that extension may \
                 register it"
            ),
            ExtensionError::Taken { name } => write!(
                f,
                "`{name}` is already served by this server: a method or an extension is \
                 registered once"
            ),
            ExtensionError::BadId { id } => write!(
                f,
                "`{id}` is not an extension id: it needs a prefix and a name, without spaces \
                 (`com.acme/{}`)",
                id.trim_matches('/')
            ),
        }
    }
}

impl std::error::Error for ExtensionError {}
