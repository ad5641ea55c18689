//! Who is calling and what they may do: the [`Principal`], the verified [`AccessToken`], the
//! raw [`BearerToken`] and the validated [`Scope`].
//!
//! These types are named by every layer (the call context, the engine, the HTTP transport and
//! the `auth` feature), so they live in one module that needs no feature and depends only on
//! the canonical digest (design §26).
//!
//! Here: the [`Principal`] and a request's step-up; `scope.rs` the [`Scope`] and the
//! challenge's scopes; `token.rs` the [`BearerToken`] and the verified [`AccessToken`].

mod scope;
mod token;

#[cfg(feature = "auth")]
pub use scope::OFFLINE_ACCESS;
pub(crate) use scope::challenge_scopes;
pub use scope::{Scope, ScopeError};
pub use token::{AccessToken, Audience, BearerToken};

use crate::canonical;
use serde_json::Value;
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Map;

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
