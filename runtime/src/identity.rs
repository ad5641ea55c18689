//! Who is calling and what they may do: the [`Principal`], the verified [`AccessToken`], the
//! raw [`BearerToken`] and the validated [`Scope`].
//!
//! These types are named by every layer (the call context, the engine, the HTTP transport and
//! the `auth` feature), so they live in one module that needs no feature and depends only on
//! the canonical digest (design §26).

use crate::canonical;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;
use std::time::SystemTime;

/// Who is calling, as established by the transport: a verified access token (the `auth`
/// feature: issuer, subject and client id), or an id that a layer in front put into the HTTP
/// request's extensions.
///
/// Everything a client can come back for is bound to its [`key`](Principal::key): sealed
/// `requestState` (a state issued to one principal is refused when another presents it),
/// tasks, and 2025-11-25 sessions. The key is a function of the identity, never of the token,
/// so a client that obtains a new token for the same user (a refresh, a step-up to more
/// scopes) keeps its questions' answers, its tasks and its session.
///
/// Two principals are equal when their keys are: the token that proved an identity is not
/// part of it.
#[derive(Clone)]
pub struct Principal {
    id: String,
    key: String,
    verified: Option<Arc<Verified>>,
}

struct Verified {
    issuer: String,
    client_id: Option<String>,
    /// The token this principal was established by, on a protected endpoint.
    grant: Option<Grant>,
}

/// What a verified request carried: the checked token and, when the operator opted in, the
/// raw bearer token, with what the resource server derived from it.
pub(crate) struct Grant {
    pub token: AccessToken,
    pub bearer: Option<BearerToken>,
    /// The token's scopes and every scope they imply under the server's hierarchy.
    pub effective: BTreeSet<Scope>,
    /// The token's expiry plus the server's leeway: when streams it opened end.
    pub valid_until: SystemTime,
    /// Whether lists show only what this token may use.
    pub filter_lists: bool,
}

impl PartialEq for Principal {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key && self.is_verified() == other.is_verified()
    }
}

impl Eq for Principal {}

impl std::hash::Hash for Principal {
    fn hash<S: std::hash::Hasher>(&self, state: &mut S) {
        self.key.hash(state);
        self.is_verified().hash(state);
    }
}

impl Principal {
    /// A principal with a stable id (e.g. the `sub` claim of a token verified by a layer in
    /// front). Its key is the id itself.
    pub fn new(id: impl Into<String>) -> Self {
        let id = id.into();
        Principal {
            key: id.clone(),
            id,
            verified: None,
        }
    }

    /// The principal of a verified access token: the issuer that signed it, its subject
    /// (unique per issuer) and the client application it was issued to. Its key is
    /// the hex SHA-256 of the canonical JSON `["issuer", "subject", "client_id" or null]`:
    /// fixed-size, and injective
    /// (a JSON array, not a concatenation, so `("a:b", "c")` and `("a", "b:c")` differ). The
    /// client id is part of it on purpose: the same user through another client application
    /// does not inherit its questions.
    pub fn verified(
        issuer: impl Into<String>,
        subject: impl Into<String>,
        client_id: Option<String>,
    ) -> Self {
        Principal::verified_with(issuer.into(), subject.into(), client_id, None)
    }

    fn verified_with(
        issuer: String,
        subject: String,
        client_id: Option<String>,
        grant: Option<Grant>,
    ) -> Self {
        let triple = Value::Array(vec![
            Value::String(issuer.clone()),
            Value::String(subject.clone()),
            client_id.clone().map_or(Value::Null, Value::String),
        ]);
        let key = canonical::hex(&canonical::digest(&triple));
        Principal {
            id: subject,
            key,
            verified: Some(Arc::new(Verified {
                issuer,
                client_id,
                grant,
            })),
        }
    }

    /// The principal a protected endpoint established from a verified token, carrying the
    /// grant for the call context.
    #[cfg_attr(not(feature = "auth"), allow(dead_code))]
    pub(crate) fn of_grant(grant: Grant) -> Self {
        let t = &grant.token;
        let (iss, sub, cid) = (t.issuer.clone(), t.subject.clone(), t.client_id.clone());
        Principal::verified_with(iss, sub, cid, Some(grant))
    }

    /// The verified access token of this request, on an endpoint protected by a resource
    /// server (the `auth` feature); `None` otherwise.
    pub fn access_token(&self) -> Option<&AccessToken> {
        let grant = self.verified.as_ref()?.grant.as_ref()?;
        Some(&grant.token)
    }

    /// The raw bearer token, when the resource server exposes it.
    pub(crate) fn bearer_token(&self) -> Option<&BearerToken> {
        self.verified.as_ref()?.grant.as_ref()?.bearer.as_ref()
    }

    /// When the token that established this principal stops being accepted (its expiry plus
    /// the leeway): a stream it opened ends then. `None` without a token.
    pub(crate) fn valid_until(&self) -> Option<SystemTime> {
        Some(self.verified.as_ref()?.grant.as_ref()?.valid_until)
    }

    /// Whether lists show only what this principal's token may use.
    pub(crate) fn filters_lists(&self) -> bool {
        self.grant().is_some_and(|g| g.filter_lists)
    }

    fn grant(&self) -> Option<&Grant> {
        self.verified.as_ref()?.grant.as_ref()
    }

    /// Whether the verified token grants `scope`, itself or through a broader scope that
    /// implies it.
    pub(crate) fn grants(&self, scope: &str) -> bool {
        self.verified
            .as_ref()
            .and_then(|v| v.grant.as_ref())
            .is_some_and(|g| g.effective.contains(scope))
    }

    /// The id: the token's subject for a verified principal, the given id otherwise.
    pub fn id(&self) -> &str {
        &self.id
    }
    /// The token's subject (the same as [`id`](Principal::id)).
    pub fn subject(&self) -> &str {
        &self.id
    }
    /// The issuer of the verified token; `None` for [`Principal::new`].
    pub fn issuer(&self) -> Option<&str> {
        self.verified.as_ref().map(|v| v.issuer.as_str())
    }
    /// The client application the verified token was issued to, when it says.
    pub fn client_id(&self) -> Option<&str> {
        self.verified.as_ref().and_then(|v| v.client_id.as_deref())
    }
    /// Whether this principal comes from a verified access token.
    pub fn is_verified(&self) -> bool {
        self.verified.is_some()
    }
    /// What state, tasks and sessions are bound to (see the type's docs).
    pub fn key(&self) -> &str {
        &self.key
    }
}

impl fmt::Debug for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Principal");
        d.field("id", &self.id);
        if let Some(v) = &self.verified {
            d.field("issuer", &v.issuer)
                .field("client_id", &v.client_id);
        }
        d.finish()
    }
}

/// Resolves when the token that established `who` stops being accepted; never without one.
pub(crate) async fn token_expiry(who: Option<&Principal>) {
    match who.and_then(Principal::valid_until) {
        Some(at) => {
            let left = at
                .duration_since(std::time::SystemTime::now())
                .unwrap_or_default();
            tokio::time::sleep(left).await;
        }
        None => std::future::pending().await,
    }
}

/// The scope that a refresh token is asked for; never a resource's scope (2026-07-28:
/// servers SHOULD NOT put it in a challenge or in `scopes_supported`).
pub const OFFLINE_ACCESS: &str = "offline_access";

/// The scopes a `403 insufficient_scope` names: the operation's `required` scopes (all of
/// them, at once, in their order), then the other `granted` ones, so that a client that
/// replaces its scopes with the challenge's keeps what it had. `offline_access` is never named.
pub(crate) fn challenge_scopes<'a>(
    required: &'a [Scope],
    granted: impl IntoIterator<Item = &'a Scope>,
) -> Vec<Scope> {
    let mut out: Vec<Scope> = Vec::new();
    for s in required.iter().chain(granted) {
        if s.as_str() != OFFLINE_ACCESS && !out.contains(s) {
            out.push(s.clone());
        }
    }
    out
}

/// What `cx.require_scopes` found missing, for the transport to answer as a step-up
/// (`403 insufficient_scope`) when nothing was sent for the request yet.
#[derive(Debug, Clone)]
#[cfg_attr(not(feature = "auth"), allow(dead_code))]
pub(crate) struct StepUp {
    /// The challenge's scopes (see [`challenge_scopes`]).
    pub scopes: Vec<Scope>,
    /// The scopes the token lacks.
    pub missing: Vec<Scope>,
}

/// Where a request's [`StepUp`] is recorded; only protected endpoints have one.
pub(crate) type StepUpSlot = Arc<std::sync::OnceLock<StepUp>>;

/// An OAuth scope: a non-empty scope-token of printable ASCII without space, `"` or `\`
/// (RFC 6749 §3.3), so it can be written into a `WWW-Authenticate` challenge as it is.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Scope(Cow<'static, str>);

/// Why a string is not a [`Scope`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeError {
    reason: &'static str,
}

impl fmt::Display for ScopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.reason)
    }
}

impl std::error::Error for ScopeError {}

/// The longest scope Rondo accepts, in bytes.
pub(crate) const MAX_SCOPE_BYTES: usize = 256;

const fn check_scope(s: &str) -> Result<(), &'static str> {
    let b = s.as_bytes();
    if b.is_empty() {
        return Err("a scope cannot be empty");
    }
    if b.len() > MAX_SCOPE_BYTES {
        return Err("a scope is at most 256 bytes");
    }
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' => return Err("a scope cannot contain a space: write two scopes"),
            b'"' | b'\\' => return Err("a scope cannot contain `\"` or `\\` (RFC 6749 §3.3)"),
            0x21..=0x7e => {}
            _ => {
                return Err(
                    "a scope is printable ASCII without space, `\"` or `\\` (RFC 6749 §3.3)",
                );
            }
        }
        i += 1;
    }
    Ok(())
}

impl Scope {
    /// A scope from a string, checked.
    pub fn new(s: impl Into<Cow<'static, str>>) -> Result<Scope, ScopeError> {
        let s = s.into();
        match check_scope(&s) {
            Ok(()) => Ok(Scope(s)),
            Err(reason) => Err(ScopeError { reason }),
        }
    }
    /// A scope from a literal; checked at compile time in a `const` (a bad literal fails the
    /// build), at run time otherwise (it panics: use [`Scope::new`] for values read at run
    /// time).
    pub const fn from_static(s: &'static str) -> Scope {
        match check_scope(s) {
            Ok(()) => Scope(Cow::Borrowed(s)),
            Err(reason) => panic!("{}", reason),
        }
    }
    /// The scope as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for Scope {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Scope {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for Scope {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for Scope {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

/// A bearer token as the client sent it. Its `Debug` and `Display` never show it; only
/// [`expose`](BearerToken::expose) does, so it cannot reach a log by accident.
#[derive(Clone, PartialEq, Eq)]
pub struct BearerToken(String);

impl BearerToken {
    /// Wraps a token.
    pub fn new(token: impl Into<String>) -> Self {
        BearerToken(token.into())
    }
    /// The token itself. A server MUST NOT pass a client's token through to an upstream API
    /// (MCP Authorization, "Token Passthrough"): exchange it (RFC 8693) for one issued to you.
    pub fn expose(&self) -> &str {
        &self.0
    }
    /// Its length in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bearer [redacted, {} bytes]", self.0.len())
    }
}

impl fmt::Display for BearerToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Whom a token was issued for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Audience {
    /// The token's `aud` values (a JWT's `aud` string or array, an introspection answer's
    /// `aud`). The resource server accepts the token when one of them names it.
    Values(Vec<String>),
    /// The token names no audience, and the verifier vouches that the authorization server's
    /// answer already means "for this resource"; the reason is written in the code and logged.
    Vouched(&'static str),
}

/// A verified access token: what its verifier established. The raw token is not in it.
#[derive(Clone)]
#[non_exhaustive]
pub struct AccessToken {
    /// The issuer (`iss`).
    pub issuer: String,
    /// The subject (`sub`): the user, or the client itself for a client-credentials token.
    pub subject: String,
    /// The client application (`client_id`, else `azp`).
    pub client_id: Option<String>,
    /// The scopes granted.
    pub scopes: BTreeSet<Scope>,
    /// When it expires (`exp`). A token without an expiry is refused.
    pub expires_at: SystemTime,
    /// Whom it was issued for (`aud`); the resource server checks it whatever the verifier did.
    pub audience: Audience,
    /// Every claim, for the server's own decisions.
    pub claims: Map<String, Value>,
}

impl AccessToken {
    /// A token with these facts and no other claims.
    pub fn new(
        issuer: impl Into<String>,
        subject: impl Into<String>,
        expires_at: SystemTime,
        audience: Audience,
    ) -> Self {
        AccessToken {
            issuer: issuer.into(),
            subject: subject.into(),
            client_id: None,
            scopes: BTreeSet::new(),
            expires_at,
            audience,
            claims: Map::new(),
        }
    }
    /// With this client id.
    pub fn with_client_id(mut self, client_id: impl Into<String>) -> Self {
        self.client_id = Some(client_id.into());
        self
    }
    /// With these scopes granted.
    pub fn with_scopes(mut self, scopes: impl IntoIterator<Item = Scope>) -> Self {
        self.scopes.extend(scopes);
        self
    }
    /// With these claims.
    pub fn with_claims(mut self, claims: Map<String, Value>) -> Self {
        self.claims = claims;
        self
    }
    /// The principal this token authenticates.
    pub fn principal(&self) -> Principal {
        Principal::verified(&*self.issuer, &*self.subject, self.client_id.clone())
    }
}

impl fmt::Debug for AccessToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AccessToken")
            .field("issuer", &self.issuer)
            .field("subject", &self.subject)
            .field("client_id", &self.client_id)
            .field("scopes", &self.scopes)
            .field("expires_at", &self.expires_at)
            .field("audience", &self.audience)
            .field("claims", &self.claims.keys().collect::<Vec<_>>())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_the_identity_and_not_a_concatenation() {
        let a = Principal::verified("https://id.example", "u1", Some("c".into()));
        let same = Principal::verified("https://id.example", "u1", Some("c".into()));
        assert_eq!(a.key(), same.key());
        assert_eq!(a.key().len(), 64);
        for other in [
            Principal::verified("https://other.example", "u1", Some("c".into())),
            Principal::verified("https://id.example", "u2", Some("c".into())),
            Principal::verified("https://id.example", "u1", Some("d".into())),
            Principal::verified("https://id.example", "u1", None),
        ] {
            assert_ne!(a.key(), other.key(), "{other:?}");
        }
        let x = Principal::verified("a:b", "c", None);
        let y = Principal::verified("a", "b:c", None);
        assert_ne!(x.key(), y.key());
        assert_eq!(Principal::new("alice").key(), "alice");
    }

    #[test]
    fn scopes_are_scope_tokens() {
        assert!(Scope::new("orders:write").is_ok());
        for bad in ["", "a b", "a\"b", "a\\b", "é", "a\nb"] {
            assert!(Scope::new(bad).is_err(), "{bad:?}");
        }
        assert!(Scope::new("x".repeat(257)).is_err());
        const S: Scope = Scope::from_static("books:read");
        assert_eq!(S, "books:read");
    }

    #[test]
    fn a_token_never_shows_in_debug_output() {
        let t = BearerToken::new("secret-token-value");
        assert_eq!(format!("{t:?}"), "Bearer [redacted, 18 bytes]");
        assert_eq!(t.to_string(), "Bearer [redacted, 18 bytes]");
        let mut claims = Map::new();
        claims.insert("secret_claim".into(), Value::String("hidden-value".into()));
        let at = AccessToken::new("i", "s", SystemTime::UNIX_EPOCH, Audience::Values(vec![]))
            .with_claims(claims);
        let shown = format!("{at:?}");
        assert!(shown.contains("secret_claim") && !shown.contains("hidden-value"));
    }
}
