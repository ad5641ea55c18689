//! The check of one request's credentials against a [`ResourceServer`].

use super::{AuthError, MAX_IDENTITY_BYTES, MAX_TOKEN_SCOPES, ResourceServer};
use crate::identity::{AccessToken, Audience, BearerToken, Grant, Principal, Scope};
use std::time::SystemTime;

impl ResourceServer {
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
