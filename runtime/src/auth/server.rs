//! [`ResourceServer`]: the configuration of a protected server, and the check of one
//! request's bearer token against it (signature and expiry by the verifier; audience, expiry
//! and size by the resource server, whatever the verifier did).

use super::audience::{CanonicalUrl, UrlError};
use super::scopes::{OFFLINE_ACCESS, ScopeHierarchy};
use super::{AuthError, TokenVerifier};
use crate::identity::{AccessToken, Audience, BearerToken, Grant, Principal, Scope};
use serde_json::{Value, json};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

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
    url: CanonicalUrl,
    metadata_urls: (String, String),
    verifier: Arc<dyn TokenVerifier>,
    s: Settings,
}

/// What the builder's setters set, kept as they are by the built server.
struct Settings {
    authorization_servers: Vec<String>,
    required: Vec<Scope>,
    supported: Option<Vec<Scope>>,
    hierarchy: ScopeHierarchy,
    extra_audiences: Vec<String>,
    resource_name: Option<String>,
    documentation: Option<String>,
    root_metadata: bool,
    leeway: Duration,
    max_token_bytes: usize,
    expose_bearer_token: bool,
    filter_lists: bool,
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

impl fmt::Debug for ResourceServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResourceServer")
            .field("url", &self.inner.url.as_str())
            .field("authorization_servers", &self.inner.s.authorization_servers)
            .finish_non_exhaustive()
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

    /// Verifies the value of a request's `Authorization` headers (`values`: every one the
    /// request carried) at `now`: the verifier, then the audience, expiry and size checks,
    /// then the required scopes.
    pub async fn authenticate(
        &self,
        values: &[&[u8]],
        now: SystemTime,
    ) -> Result<AccessToken, Refused> {
        self.check(values, now).await.map(|(at, _)| at)
    }

    /// The principal of a request's `Authorization` headers (see
    /// [`authenticate`](Self::authenticate)), carrying its token for the call context.
    pub(crate) async fn principal(
        &self,
        values: &[&[u8]],
        now: SystemTime,
    ) -> Result<Principal, Refused> {
        let (at, bearer) = self.check(values, now).await?;
        let i = &*self.inner;
        Ok(Principal::of_grant(Grant {
            bearer: i.s.expose_bearer_token.then_some(bearer),
            effective: i.s.hierarchy.expand(&at.scopes),
            valid_until: at
                .expires_at
                .checked_add(i.s.leeway)
                .unwrap_or(at.expires_at),
            filter_lists: i.s.filter_lists,
            token: at,
        }))
    }

    /// How far past `exp` a token is still accepted.
    pub fn leeway(&self) -> Duration {
        self.inner.s.leeway
    }

    async fn check(
        &self,
        values: &[&[u8]],
        now: SystemTime,
    ) -> Result<(AccessToken, BearerToken), Refused> {
        let i = &*self.inner;
        let raw = match values {
            [] => return Err(Refused::Missing),
            [one] => *one,
            _ => return Err(Refused::Malformed("send one Authorization header")),
        };
        let Some(token) = bearer(raw) else {
            // Another scheme (`Basic ...`) is no credential for this server (RFC 6750 §3.1).
            return if raw.len() >= 6 && raw[..6].eq_ignore_ascii_case(b"bearer") {
                Err(Refused::Malformed("the Bearer scheme needs a token"))
            } else {
                Err(Refused::Missing)
            };
        };
        if token.len() > i.s.max_token_bytes {
            return Err(Refused::Invalid("The access token is too large".into()));
        }
        let token = BearerToken::new(token);
        let at = i.verifier.verify(&token).await.map_err(Refused::from)?;
        if [&at.issuer, &at.subject]
            .into_iter()
            .chain(at.client_id.as_ref())
            .any(|f| f.len() > MAX_IDENTITY_BYTES || f.is_empty())
        {
            return Err(Refused::Invalid(
                "The access token's issuer, subject or client id is empty or too long".into(),
            ));
        }
        if at.scopes.len() > MAX_TOKEN_SCOPES {
            return Err(Refused::Invalid(
                "The access token grants too many scopes".into(),
            ));
        }
        match &at.audience {
            Audience::Values(v)
                if v.iter().any(|a| {
                    i.url.is_named_by(a) || i.s.extra_audiences.iter().any(|x| x == a)
                }) => {}
            Audience::Vouched(_) => {}
            Audience::Values(v) if v.is_empty() => {
                return Err(Refused::Invalid(
                    "The access token names no audience".into(),
                ));
            }
            Audience::Values(_) => {
                return Err(Refused::Invalid(
                    "The access token was issued for another resource".into(),
                ));
            }
        }
        let valid_until = at
            .expires_at
            .checked_add(i.s.leeway)
            .unwrap_or(at.expires_at);
        if valid_until <= now {
            return Err(Refused::Invalid("The access token expired".into()));
        }
        let missing = i.s.hierarchy.missing(&i.s.required, &at.scopes);
        if !missing.is_empty() {
            return Err(Refused::Scope(
                i.s.hierarchy.challenge_scopes(&i.s.required, &at.scopes),
            ));
        }
        Ok((at, token))
    }
}

/// The token of a `Bearer` credential (RFC 6750 §2.1: the scheme is case-insensitive; the
/// token is a `b64token`).
fn bearer(raw: &[u8]) -> Option<&str> {
    let (scheme, rest) = raw.split_at_checked(6)?;
    if !scheme.eq_ignore_ascii_case(b"bearer") || rest.first() != Some(&b' ') {
        return None;
    }
    let token = std::str::from_utf8(&rest[1..]).ok()?.trim_matches(' ');
    let b64token = |c: char| c.is_ascii_alphanumeric() || "-._~+/".contains(c);
    let body = token.trim_end_matches('=');
    (!body.is_empty() && body.chars().all(b64token)).then_some(token)
}

/// Why a request's credentials were refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refused {
    /// No credentials: 401 without an error code.
    Missing,
    /// A malformed credential: 400 `invalid_request`.
    Malformed(&'static str),
    /// An invalid token: 401 `invalid_token`.
    Invalid(String),
    /// Too few scopes: 403 `insufficient_scope`, naming these.
    Scope(Vec<Scope>),
    /// The verifier's policy: 403 without a scope list.
    Forbidden(String),
    /// The verifier cannot decide: 500.
    Unavailable(String),
}

impl From<AuthError> for Refused {
    fn from(e: AuthError) -> Self {
        match e {
            AuthError::Malformed(_) => Refused::Malformed("the credentials are malformed"),
            AuthError::Invalid(s) => Refused::Invalid(s),
            AuthError::Forbidden(s) => Refused::Forbidden(s),
            AuthError::Unavailable(s) => Refused::Unavailable(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::BoxFuture;
    use std::collections::HashMap;

    const URL: &str = "https://books.example/mcp";

    /// A verifier that knows a table of tokens.
    struct Table(HashMap<&'static str, AccessToken>);

    impl TokenVerifier for Table {
        fn verify<'a>(
            &'a self,
            token: &'a BearerToken,
        ) -> BoxFuture<'a, Result<AccessToken, AuthError>> {
            let found = self.0.get(token.expose()).cloned();
            Box::pin(async move {
                found.ok_or_else(|| AuthError::Invalid("The access token is not known".into()))
            })
        }
    }

    fn token(aud: &[&str], exp_in: i64, scopes: &[&'static str]) -> AccessToken {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let exp = if exp_in >= 0 {
            now + Duration::from_secs(exp_in as u64)
        } else {
            now - Duration::from_secs((-exp_in) as u64)
        };
        AccessToken::new(
            "https://id.example",
            "alice",
            exp,
            Audience::Values(aud.iter().map(|s| s.to_string()).collect()),
        )
        .with_client_id("app")
        .with_scopes(scopes.iter().map(|s| Scope::from_static(s)))
    }

    fn server() -> ResourceServer {
        let t = HashMap::from([
            (
                "good",
                token(&["HTTPS://Books.Example/mcp/"], 60, &["books:read"]),
            ),
            ("array", token(&["other", URL], 60, &["books:read"])),
            (
                "other-aud",
                token(&["https://books.example/mcp2"], 60, &["books:read"]),
            ),
            ("no-aud", token(&[], 60, &["books:read"])),
            ("expired", token(&[URL], -31, &["books:read"])),
            ("in-leeway", token(&[URL], -29, &["books:read"])),
            ("no-scope", token(&[URL], 60, &["profile"])),
            ("app-id", token(&["api://books"], 60, &["books:read"])),
        ]);
        ResourceServer::builder(URL)
            .authorization_server("https://id.example")
            .verifier(Table(t))
            .required_scopes(["books:read"])
            .also_accept_audience("api://books")
            .resource_name("Bookshop")
            .build()
            .unwrap()
    }

    fn at(rs: &ResourceServer, header: &str) -> Result<AccessToken, Refused> {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        futures_util::FutureExt::now_or_never(rs.authenticate(&[header.as_bytes()], now))
            .expect("the table verifier does not wait")
    }

    #[test]
    fn each_token_gets_its_answer() {
        let rs = server();
        for ok in [
            "Bearer good",
            "bearer array",
            "BEARER in-leeway",
            "Bearer app-id",
        ] {
            let t = at(&rs, ok).unwrap_or_else(|e| panic!("{ok}: {e:?}"));
            assert_eq!(t.principal().client_id(), Some("app"));
        }
        let invalid = |s: &str| Refused::Invalid(s.into());
        for (h, want) in [
            ("Bearer unknown", invalid("The access token is not known")),
            (
                "Bearer other-aud",
                invalid("The access token was issued for another resource"),
            ),
            (
                "Bearer no-aud",
                invalid("The access token names no audience"),
            ),
            ("Bearer expired", invalid("The access token expired")),
            ("Basic YWxhZGRpbjpvcGVuc2VzYW1l", Refused::Missing),
            (
                "Bearer",
                Refused::Malformed("the Bearer scheme needs a token"),
            ),
            (
                "Bearer a b",
                Refused::Malformed("the Bearer scheme needs a token"),
            ),
            (
                "Bearer no-scope",
                Refused::Scope(vec![
                    Scope::from_static("books:read"),
                    Scope::from_static("profile"),
                ]),
            ),
        ] {
            assert_eq!(at(&rs, h).unwrap_err(), want, "{h}");
        }
        let huge = format!("Bearer {}", "a".repeat(16 * 1024 + 1));
        assert_eq!(
            at(&rs, &huge).unwrap_err(),
            invalid("The access token is too large")
        );
        let now = SystemTime::UNIX_EPOCH;
        let none = futures_util::FutureExt::now_or_never(rs.authenticate(&[], now)).unwrap();
        assert_eq!(none.unwrap_err(), Refused::Missing);
        let two = futures_util::FutureExt::now_or_never(
            rs.authenticate(&[b"Bearer good", b"Bearer good"], now),
        )
        .unwrap();
        assert_eq!(
            two.unwrap_err(),
            Refused::Malformed("send one Authorization header")
        );
    }

    #[test]
    fn the_metadata_names_the_configured_url_and_servers() {
        let rs = server();
        let declared = [
            Scope::from_static("orders:write"),
            Scope::from_static("offline_access"),
        ];
        assert_eq!(
            rs.metadata(&declared),
            json!({
                "resource": URL,
                "authorization_servers": ["https://id.example"],
                "bearer_methods_supported": ["header"],
                "scopes_supported": ["orders:write", "books:read"],
                "resource_name": "Bookshop",
            })
        );
        assert_eq!(
            rs.metadata_paths(),
            [
                "/.well-known/oauth-protected-resource/mcp",
                "/.well-known/oauth-protected-resource"
            ]
        );
        assert_eq!(
            rs.metadata_url(),
            "https://books.example/.well-known/oauth-protected-resource/mcp"
        );
    }

    #[test]
    fn an_incomplete_configuration_is_an_error() {
        let no_as = ResourceServer::builder(URL)
            .verifier(Table(HashMap::new()))
            .build();
        assert!(
            no_as
                .unwrap_err()
                .to_string()
                .contains("authorization server")
        );
        let no_v = ResourceServer::builder(URL)
            .authorization_server("https://id.example")
            .build();
        assert!(no_v.unwrap_err().to_string().contains("verifier"));
        let bad = ResourceServer::builder("http://books.example/mcp")
            .authorization_server("https://id.example")
            .verifier(Table(HashMap::new()))
            .build();
        assert!(bad.unwrap_err().to_string().starts_with("public URL:"));
        let scope = ResourceServer::builder(URL)
            .authorization_server("https://id.example")
            .verifier(Table(HashMap::new()))
            .required_scopes(["a b"])
            .build();
        assert!(scope.unwrap_err().to_string().contains("space"));
        let implies = ResourceServer::builder(URL)
            .authorization_server("https://id.example")
            .verifier(Table(HashMap::new()))
            .implies("admin", ["x\"y"])
            .build();
        assert!(
            implies
                .unwrap_err()
                .to_string()
                .contains(r#"the scope "x\"y""#)
        );
    }
}
