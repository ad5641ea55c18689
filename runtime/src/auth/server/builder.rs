//! The settings of a [`ResourceServer`] and their validation.

use super::{Inner, MAX_TOKEN_BYTES, ResourceServer, TokenVerifier};
use crate::auth::audience::{CanonicalUrl, UrlError};
use crate::auth::scopes::ScopeHierarchy;
use crate::identity::Scope;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// What the builder's setters set, kept as they are by the built server.
pub(super) struct Settings {
    pub(super) authorization_servers: Vec<String>,
    pub(super) required: Vec<Scope>,
    pub(super) supported: Option<Vec<Scope>>,
    pub(super) hierarchy: ScopeHierarchy,
    pub(super) extra_audiences: Vec<String>,
    pub(super) resource_name: Option<String>,
    pub(super) documentation: Option<String>,
    pub(super) root_metadata: bool,
    pub(super) leeway: Duration,
    pub(super) max_token_bytes: usize,
    pub(super) expose_bearer_token: bool,
    pub(super) filter_lists: bool,
}

/// A [`ResourceServer`] being configured.
pub struct ResourceServerBuilder {
    url: Result<CanonicalUrl, UrlError>,
    verifier: Option<Arc<dyn TokenVerifier>>,
    s: Settings,
    errors: Vec<String>,
}

/// Why a [`ResourceServer`] could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

impl ConfigError {
    /// An error with this text (for the other builders of the `auth` features).
    #[cfg_attr(not(feature = "auth-jwt"), allow(dead_code))]
    pub(crate) fn new(text: impl Into<String>) -> Self {
        ConfigError(text.into())
    }
}

/// The valid scopes of `names`; each invalid one is an error for `build` to report.
fn scopes<I, S>(names: I, errors: &mut Vec<String>) -> Vec<Scope>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let mut out = Vec::new();
    for name in names {
        let name = name.into();
        match Scope::new(name.clone()) {
            Ok(s) => out.push(s),
            Err(e) => errors.push(format!("the scope {name:?}: {e}")),
        }
    }
    out
}

impl ResourceServerBuilder {
    /// An authorization server whose tokens this server accepts (its issuer identifier); at
    /// least one. Listed in the metadata's `authorization_servers`, in order.
    pub fn authorization_server(mut self, issuer: impl Into<String>) -> Self {
        self.s.authorization_servers.push(issuer.into());
        self
    }
    /// The verifier of bearer tokens (required).
    pub fn verifier(mut self, verifier: impl TokenVerifier) -> Self {
        self.verifier = Some(Arc::new(verifier));
        self
    }
    /// Scopes every request needs; named in the `scope` of the 401 challenge.
    pub fn required_scopes<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.s.required = scopes(names, &mut self.errors);
        self
    }
    /// The metadata's `scopes_supported` (default: the scopes the handler declares).
    pub fn scopes_supported<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.s.supported = Some(scopes(names, &mut self.errors));
        self
    }
    /// A broader scope implies narrower ones (see [`ScopeHierarchy`]).
    pub fn implies<I, S>(mut self, broad: &str, narrow: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        match Scope::new(broad.to_owned()) {
            Ok(b) => {
                let narrow = scopes(narrow, &mut self.errors);
                self.s.hierarchy = self.s.hierarchy.implies(b, narrow);
            }
            Err(e) => self.errors.push(format!("the scope {broad:?}: {e}")),
        }
        self
    }
    /// Also accepts tokens whose audience is `audience` exactly (an identity provider that
    /// writes an application id, such as `api://bookshop`, instead of the URL).
    pub fn also_accept_audience(mut self, audience: impl Into<String>) -> Self {
        self.s.extra_audiences.push(audience.into());
        self
    }
    /// The metadata's `resource_name`.
    pub fn resource_name(mut self, name: impl Into<String>) -> Self {
        self.s.resource_name = Some(name.into());
        self
    }
    /// The metadata's `resource_documentation` (a URL).
    pub fn resource_documentation(mut self, url: impl Into<String>) -> Self {
        self.s.documentation = Some(url.into());
        self
    }
    /// Whether the root well-known URL serves the metadata too (default yes); turn it off
    /// when several resources share the host.
    pub fn root_metadata(mut self, serve: bool) -> Self {
        self.s.root_metadata = serve;
        self
    }
    /// How far past `exp` a token is still accepted (default 30 s, at most 5 min).
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.s.leeway = leeway.min(Duration::from_secs(300));
        self
    }
    /// The largest bearer token accepted, in bytes (default 16 KiB).
    pub fn max_token_bytes(mut self, bytes: usize) -> Self {
        self.s.max_token_bytes = bytes;
        self
    }

    /// Whether handlers may read the raw bearer token through
    /// [`Cx::bearer_token`](crate::Cx::bearer_token) (default no). The MCP specification
    /// forbids passing the client's token through to upstream APIs ("token passthrough"): a
    /// server that calls other services on the user's behalf exchanges it for a token of its
    /// own (RFC 8693) or uses its own credentials. Turn this on only for such an exchange.
    pub fn expose_bearer_token(mut self, expose: bool) -> Self {
        self.s.expose_bearer_token = expose;
        self
    }

    /// Whether `tools/list`, `prompts/list`, `resources/list` and `resources/templates/list`
    /// show each caller only the items whose declared scopes its token grants (default no).
    /// Filtered lists are marked `cacheScope: "private"` (they differ per token). Off by
    /// default because a client that sees a tool it cannot call yet learns to step up for it;
    /// one that never sees it cannot. Paging runs on the filtered list, so a cursor is only
    /// meaningful to callers with the same scopes. [`Router`](crate::Router) filters by
    /// itself; a hand-written handler asks [`Cx::can_see`](crate::Cx::can_see).
    pub fn filter_lists(mut self, filter: bool) -> Self {
        self.s.filter_lists = filter;
        self
    }

    /// The resource server, or what is wrong with its settings.
    pub fn build(self) -> Result<ResourceServer, ConfigError> {
        let url = self
            .url
            .map_err(|e| ConfigError(format!("public URL: {e}")))?;
        if let Some(e) = self.errors.into_iter().next() {
            return Err(ConfigError(e));
        }
        if self.s.authorization_servers.is_empty() {
            return Err(ConfigError(
                "name at least one authorization server (`authorization_server`)".into(),
            ));
        }
        let verifier = self
            .verifier
            .ok_or_else(|| ConfigError("a resource server needs a `verifier`".into()))?;
        Ok(ResourceServer {
            inner: Arc::new(Inner {
                metadata_urls: url.metadata_urls(),
                url,
                verifier,
                s: self.s,
            }),
        })
    }
}

impl ResourceServer {
    /// Starts the settings of the server whose canonical public URL is `public_url` (the
    /// audience its tokens must name; validated by [`build`](ResourceServerBuilder::build)).
    pub fn builder(public_url: &str) -> ResourceServerBuilder {
        ResourceServerBuilder {
            url: CanonicalUrl::parse(public_url),
            verifier: None,
            s: Settings {
                authorization_servers: Vec::new(),
                required: Vec::new(),
                supported: None,
                hierarchy: ScopeHierarchy::new(),
                extra_audiences: Vec::new(),
                resource_name: None,
                documentation: None,
                root_metadata: true,
                leeway: Duration::from_secs(30),
                max_token_bytes: MAX_TOKEN_BYTES,
                expose_bearer_token: false,
                filter_lists: false,
            },
            errors: Vec::new(),
        }
    }
}
