//! [`ResourceServer`]: the configuration of a protected server, and the check of one
//! request's bearer token against it (signature and expiry by the verifier; audience, expiry
//! and size by the resource server, whatever the verifier did).
//!
//! Here: the built server, its accessors and its metadata document; `builder.rs` its settings
//! and their validation; `check.rs` the check of a request's credentials.

mod builder;
mod check;
#[cfg(test)]
mod tests;

use builder::Settings;
pub use builder::{ConfigError, ResourceServerBuilder};
pub use check::Refused;

// `AuthError` for `check.rs`.
use super::audience::CanonicalUrl;
use super::scopes::{OFFLINE_ACCESS, ScopeHierarchy};
use super::{AuthError, TokenVerifier};
use crate::identity::Scope;
use serde_json::{Value, json};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// The largest bearer token accepted by default, in bytes.
const MAX_TOKEN_BYTES: usize = 16 * 1024;
/// The most a verified identity field (`iss`, `sub`, `client_id`) may hold, in bytes.
const MAX_IDENTITY_BYTES: usize = 1024;
/// The most scopes a token may grant.
const MAX_TOKEN_SCOPES: usize = 256;

/// A protected server's resource-server settings (MCP Authorization; RFC 9728, RFC 8707).
///
/// ```
/// # use rondo_mcp::auth::*;
/// # struct V;
/// # impl TokenVerifier for V {
/// #     fn verify<'a>(&'a self, _: &'a BearerToken) -> rondo_mcp::BoxFuture<'a, Result<AccessToken, AuthError>> {
/// #         Box::pin(async { Err(AuthError::Invalid("no".into())) })
/// #     }
/// # }
/// let rs = ResourceServer::builder("https://books.example/mcp")
///     .authorization_server("https://id.example")
///     .verifier(V)
///     .required_scopes(["books:read"])
///     .build()?;
/// assert_eq!(rs.url().as_str(), "https://books.example/mcp");
/// # Ok::<(), ConfigError>(())
/// ```
#[derive(Clone)]
pub struct ResourceServer {
    inner: Arc<Inner>,
}

struct Inner {
    pub(super) url: CanonicalUrl,
    pub(super) metadata_urls: (String, String),
    pub(super) verifier: Arc<dyn TokenVerifier>,
    pub(super) s: Settings,
}

impl fmt::Debug for ResourceServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResourceServer")
            .field("url", &self.inner.url.as_str())
            .field("authorization_servers", &self.inner.s.authorization_servers)
            .finish_non_exhaustive()
    }
}

impl ResourceServer {
    /// The canonical public URL.
    pub fn url(&self) -> &CanonicalUrl {
        &self.inner.url
    }
    /// The path-inserted metadata URL (what challenges name).
    pub fn metadata_url(&self) -> &str {
        &self.inner.metadata_urls.0
    }
    /// The paths the metadata document is served at: the path-inserted one, then the root
    /// one when it differs and is served.
    pub fn metadata_paths(&self) -> Vec<String> {
        let origin = self.inner.url.origin().len();
        let (inserted, root) = &self.inner.metadata_urls;
        let mut paths = vec![inserted[origin..].to_owned()];
        if self.inner.s.root_metadata && root != inserted {
            paths.push(root[origin..].to_owned());
        }
        paths
    }
    /// The scope hierarchy.
    pub fn hierarchy(&self) -> &ScopeHierarchy {
        &self.inner.s.hierarchy
    }
    /// The scopes every request needs.
    pub fn required_scopes(&self) -> &[Scope] {
        &self.inner.s.required
    }

    /// The Protected Resource Metadata document (RFC 9728 §2). `declared` is what the handler
    /// declares, used for `scopes_supported` unless it was configured; `offline_access` is
    /// never listed.
    pub fn metadata(&self, declared: &[Scope]) -> Value {
        let i = &*self.inner;
        let mut doc = json!({
            "resource": i.url.as_str(),
            "authorization_servers": i.s.authorization_servers,
            "bearer_methods_supported": ["header"],
        });
        let supported = self.scopes_supported(declared);
        if !supported.is_empty() {
            doc["scopes_supported"] =
                json!(supported.iter().map(Scope::as_str).collect::<Vec<_>>());
        }
        if let Some(n) = &i.s.resource_name {
            doc["resource_name"] = json!(n);
        }
        if let Some(d) = &i.s.documentation {
            doc["resource_documentation"] = json!(d);
        }
        doc
    }

    /// The metadata's `scopes_supported`: the configured ones, else `declared`, then the
    /// required ones, each once, never `offline_access`.
    pub(crate) fn scopes_supported(&self, declared: &[Scope]) -> Vec<Scope> {
        let i = &*self.inner;
        let mut out: Vec<Scope> = Vec::new();
        for s in
            i.s.supported
                .as_deref()
                .unwrap_or(declared)
                .iter()
                .chain(&i.s.required)
        {
            if s.as_str() != OFFLINE_ACCESS && !out.contains(s) {
                out.push(s.clone());
            }
        }
        out
    }

    /// How far past `exp` a token is still accepted.
    pub fn leeway(&self) -> Duration {
        self.inner.s.leeway
    }
}
