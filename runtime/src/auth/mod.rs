//! Authorization for Streamable HTTP (the `auth` feature): Rondo as an OAuth 2.1 resource
//! server (MCP Authorization, both revisions).
//!
//! A [`TokenVerifier`] turns the bearer token of each request into an [`AccessToken`]; the
//! resource server then checks that the token was issued for this server (its audience), that
//! it has not expired, and that it grants the scopes the request's target declares. stdio
//! servers take their credentials from the environment instead and do not use this module.

mod audience;
mod challenge;
#[cfg(feature = "auth-remote")]
pub mod introspection;
#[cfg(feature = "auth-jwt")]
pub mod jwt;
#[cfg(feature = "auth-remote")]
mod remote;
mod scopes;
mod server;

pub use crate::identity::{AccessToken, Audience, BearerToken, Principal, Scope, ScopeError};
use crate::tools::BoxFuture;
pub use audience::{CanonicalUrl, UrlError};
pub use challenge::{Challenge, Code, filter_description};
#[cfg(feature = "auth-remote")]
pub use introspection::{ClientAuth, IntrospectionVerifier, IntrospectionVerifierBuilder};
#[cfg(feature = "auth-jwt")]
pub use jwt::{Algorithm, JwtVerifier, JwtVerifierBuilder};
pub use scopes::{OFFLINE_ACCESS, ScopeHierarchy};
pub use server::{ConfigError, Refused, ResourceServer, ResourceServerBuilder};
use std::fmt;

/// Verifies bearer tokens: a JWT verifier with the issuer's keys, token introspection at the
/// authorization server, or a verifier of your own.
///
/// Signature, issuer, expiry and not-before are the verifier's to check. The audience check
/// is not: the resource server runs it on the returned [`AccessToken::audience`] whatever the
/// verifier did, so a verifier cannot skip it by forgetting it.
pub trait TokenVerifier: Send + Sync + 'static {
    /// Verifies `token` (as sent, without the `Bearer ` prefix) and returns what it grants.
    fn verify<'a>(
        &'a self,
        token: &'a BearerToken,
    ) -> BoxFuture<'a, Result<AccessToken, AuthError>>;
}

impl<V: TokenVerifier + ?Sized> TokenVerifier for std::sync::Arc<V> {
    fn verify<'a>(
        &'a self,
        token: &'a BearerToken,
    ) -> BoxFuture<'a, Result<AccessToken, AuthError>> {
        (**self).verify(token)
    }
}

/// Why a token was not accepted. Each maps to one HTTP answer; the text is written into the
/// challenge's `error_description` (filtered to what RFC 6750 allows) and must never contain
/// the token.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthError {
    /// The request is malformed (two `Authorization` headers, `Bearer` without a token):
    /// `400 invalid_request`.
    Malformed(String),
    /// The token is not valid: bad signature, unknown key, wrong issuer or audience, expired,
    /// not yet valid, inactive, too large: `401 invalid_token`.
    Invalid(String),
    /// The token is valid but the verifier's policy refuses it: `403 insufficient_scope`
    /// without a scope list.
    Forbidden(String),
    /// The verifier cannot decide (the keys or the introspection endpoint are unreachable):
    /// `500`, without a challenge (re-authorizing would not help).
    Unavailable(String),
}

impl AuthError {
    /// The text of the error.
    pub fn description(&self) -> &str {
        match self {
            AuthError::Malformed(s)
            | AuthError::Invalid(s)
            | AuthError::Forbidden(s)
            | AuthError::Unavailable(s) => s,
        }
    }
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self {
            AuthError::Malformed(_) => "malformed request",
            AuthError::Invalid(_) => "invalid token",
            AuthError::Forbidden(_) => "forbidden",
            AuthError::Unavailable(_) => "verifier unavailable",
        };
        write!(f, "{kind}: {}", self.description())
    }
}

impl std::error::Error for AuthError {}
