//! `WWW-Authenticate: Bearer` challenges (RFC 6750 §3, RFC 9728 §5.1) and their JSON bodies.
//!
//! Values are written inside quotes, so "safe quoting" is filtering: `error_description`
//! keeps only what RFC 6750 §3 allows (printable ASCII without `"` and `\`; anything else
//! becomes a space) and is cut at 200 bytes. Scopes need no filtering: a [`Scope`] is a valid
//! scope-token by construction.

use crate::identity::Scope;
use serde_json::{Value, json};

/// The most bytes of an `error_description`.
const MAX_DESCRIPTION: usize = 200;
/// The most scopes one challenge names.
const MAX_SCOPES: usize = 64;

/// The OAuth error of a challenge (RFC 6750 §3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// The request carried no credentials: no error code (RFC 6750 §3.1).
    Missing,
    /// `invalid_request` (400).
    InvalidRequest,
    /// `invalid_token` (401).
    InvalidToken,
    /// `insufficient_scope` (403).
    InsufficientScope,
}

impl Code {
    fn name(self) -> Option<&'static str> {
        match self {
            Code::Missing => None,
            Code::InvalidRequest => Some("invalid_request"),
            Code::InvalidToken => Some("invalid_token"),
            Code::InsufficientScope => Some("insufficient_scope"),
        }
    }
    /// The HTTP status the challenge goes with.
    pub fn status(self) -> u16 {
        match self {
            Code::Missing | Code::InvalidToken => 401,
            Code::InvalidRequest => 400,
            Code::InsufficientScope => 403,
        }
    }
}

/// One challenge: what went wrong, the scopes to ask for, the metadata URL.
#[derive(Debug, Clone)]
pub struct Challenge<'a> {
    /// The error.
    pub code: Code,
    /// Why, for people (filtered when written).
    pub description: &'a str,
    /// The scopes the client should obtain (none: the parameter is left out).
    pub scopes: &'a [Scope],
    /// The Protected Resource Metadata URL.
    pub resource_metadata: &'a str,
}

/// `description` reduced to what RFC 6750 §3 allows inside quotes, at most 200 bytes.
pub fn filter_description(description: &str) -> String {
    let mut out: String = description
        .chars()
        .map(|c| match c {
            '"' | '\\' => ' ',
            ' '..='~' => c,
            _ => ' ',
        })
        .collect();
    out.truncate(MAX_DESCRIPTION);
    out
}

fn scope_list(scopes: &[Scope]) -> String {
    let mut out = String::new();
    for s in scopes.iter().take(MAX_SCOPES) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(s.as_str());
    }
    out
}

impl Challenge<'_> {
    /// The `WWW-Authenticate` value.
    pub fn header(&self) -> String {
        let mut h = String::from("Bearer ");
        let mut params: Vec<(&str, String)> = Vec::new();
        if let Some(name) = self.code.name() {
            params.push(("error", name.to_owned()));
            let d = filter_description(self.description);
            if !d.trim().is_empty() {
                params.push(("error_description", d));
            }
        }
        params.push(("resource_metadata", filter_url(self.resource_metadata)));
        if !self.scopes.is_empty() {
            params.push(("scope", scope_list(self.scopes)));
        }
        for (i, (k, v)) in params.iter().enumerate() {
            if i > 0 {
                h.push_str(", ");
            }
            h.push_str(k);
            h.push_str("=\"");
            h.push_str(v);
            h.push('"');
        }
        h
    }

    /// The JSON body (the OAuth error shape, RFC 6749 §5.2).
    pub fn body(&self) -> Value {
        let mut body = json!({ "error_description": filter_description(self.description) });
        if let Some(name) = self.code.name() {
            body["error"] = json!(name);
        }
        if self.code == Code::InsufficientScope && !self.scopes.is_empty() {
            body["scope"] = json!(scope_list(self.scopes));
        }
        body
    }
}

/// A URL is configuration, validated ASCII; filtered all the same so a header never breaks.
fn filter_url(url: &str) -> String {
    url.chars()
        .filter(|c| matches!(c, '!'..='~') && *c != '"' && *c != '\\')
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRM: &str = "https://h.example/.well-known/oauth-protected-resource/mcp";

    fn scopes(names: &[&'static str]) -> Vec<Scope> {
        names.iter().map(|s| Scope::from_static(s)).collect()
    }

    #[test]
    fn a_request_without_credentials_gets_no_error_code() {
        let s = scopes(&["books:read"]);
        let c = Challenge {
            code: Code::Missing,
            description: "This server needs an access token (Authorization: Bearer).",
            scopes: &s,
            resource_metadata: PRM,
        };
        assert_eq!(
            c.header(),
            format!("Bearer resource_metadata=\"{PRM}\", scope=\"books:read\"")
        );
        assert_eq!(c.code.status(), 401);
        assert!(c.body().get("error").is_none());
    }

    #[test]
    fn each_error_is_written_exactly() {
        let s = scopes(&["orders:write", "books:read"]);
        let c = Challenge {
            code: Code::InsufficientScope,
            description: "order_book needs orders:write",
            scopes: &s,
            resource_metadata: PRM,
        };
        assert_eq!(
            c.header(),
            format!(
                "Bearer error=\"insufficient_scope\", error_description=\"order_book needs orders:write\", resource_metadata=\"{PRM}\", scope=\"orders:write books:read\""
            )
        );
        assert_eq!(
            c.body(),
            json!({"error": "insufficient_scope", "error_description": "order_book needs orders:write", "scope": "orders:write books:read"})
        );
        let c = Challenge {
            code: Code::InvalidToken,
            description: "The access token expired",
            scopes: &[],
            resource_metadata: PRM,
        };
        assert_eq!(
            c.header(),
            format!(
                "Bearer error=\"invalid_token\", error_description=\"The access token expired\", resource_metadata=\"{PRM}\""
            )
        );
        assert_eq!((c.code.status(), Code::InvalidRequest.status()), (401, 400));
    }

    #[test]
    fn a_description_cannot_break_out_of_its_quotes() {
        let nasty = format!("a\"b\\c\r\nd\u{e9}{}", "x".repeat(10 * 1024));
        let d = filter_description(&nasty);
        assert!(d.len() <= 200);
        assert!(d.starts_with("a b c  d "), "{d}");
        assert!(
            d.bytes()
                .all(|b| (0x20..=0x7e).contains(&b) && b != b'"' && b != b'\\')
        );
        let c = Challenge {
            code: Code::InvalidToken,
            description: &nasty,
            scopes: &[],
            resource_metadata: PRM,
        };
        let h = c.header();
        // Three parameters (error, error_description, resource_metadata): six quotes, none inside.
        assert_eq!(h.matches('"').count(), 6, "{h}");
        assert!(!h.contains('\n') && !h.contains('\r'));
    }

    #[test]
    fn a_challenge_names_at_most_64_scopes() {
        let many: Vec<Scope> = (0..100)
            .map(|i| Scope::new(format!("s{i}")).unwrap())
            .collect();
        let c = Challenge {
            code: Code::InsufficientScope,
            description: "",
            scopes: &many,
            resource_metadata: PRM,
        };
        let scope = c.body()["scope"].as_str().unwrap().to_owned();
        assert_eq!(scope.split(' ').count(), 64);
        assert!(scope.starts_with("s0 s1 "));
    }
}
