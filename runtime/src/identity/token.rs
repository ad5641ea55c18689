//! [`BearerToken`], as the client sent it, and [`AccessToken`], what a verifier made of it.

use super::{Principal, Scope};
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::fmt;
use std::time::SystemTime;

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
