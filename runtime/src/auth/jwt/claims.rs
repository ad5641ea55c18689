//! The claims of a JWT whose signature checked out, as an [`AccessToken`] (RFC 9068 §2.2,
//! RFC 7519 §4.1): issuer, subject, client, expiry and not-before, audience, scopes.

use super::AuthError;
use crate::identity::{AccessToken, Audience, Scope};
use serde_json::{Map, Value};
use std::time::{Duration, SystemTime};

/// The latest `exp` or `nbf` accepted (9999-12-31T23:59:59Z): later ones are refused rather
/// than risk overflowing the clock arithmetic.
const MAX_NUMERIC_DATE: u64 = 253_402_300_799;

fn invalid(what: &str) -> AuthError {
    AuthError::Invalid(format!("The access token {what}"))
}

/// The token of `claims`, checked against the issuer and the clock (`now`, with `leeway`
/// either side, the resource server's rule: expired when `exp + leeway <= now`).
pub(crate) fn access_token(
    claims: Map<String, Value>,
    issuer: &str,
    leeway: Duration,
    now: SystemTime,
) -> Result<AccessToken, AuthError> {
    match claims.get("iss") {
        Some(Value::String(iss)) if iss == issuer => {}
        Some(Value::String(_)) => return Err(invalid("was issued by another issuer")),
        _ => return Err(invalid("names no issuer")),
    }
    let subject = match claims.get("sub") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        _ => return Err(invalid("names no subject")),
    };
    let expires_at = match claims.get("exp") {
        None => return Err(invalid("has no expiry")),
        Some(v) => numeric_date(v).ok_or_else(|| invalid("has a malformed expiry"))?,
    };
    if expires_at + leeway <= now {
        return Err(invalid("expired"));
    }
    if let Some(v) = claims.get("nbf") {
        let nbf = numeric_date(v).ok_or_else(|| invalid("has a malformed not-before time"))?;
        if nbf > now + leeway {
            return Err(invalid("is not valid yet"));
        }
    }
    let audience = match claims.get("aud") {
        None => Vec::new(),
        Some(Value::String(a)) => vec![a.clone()],
        Some(Value::Array(all)) => all
            .iter()
            .map(|a| a.as_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| invalid("has a malformed audience"))?,
        Some(_) => return Err(invalid("has a malformed audience")),
    };
    let client_id = match claims.get("client_id").or_else(|| claims.get("azp")) {
        None => None,
        Some(Value::String(c)) => Some(c.clone()),
        Some(_) => return Err(invalid("has a malformed client id")),
    };
    let mut scopes = Vec::new();
    for (name, value) in [("scope", claims.get("scope")), ("scp", claims.get("scp"))] {
        match value {
            None => {}
            Some(Value::String(s)) => scopes.extend(s.split(' ').filter(|s| !s.is_empty())),
            // RFC 9068 writes `scope` as a string; `scp` is also seen as an array.
            Some(Value::Array(all)) if name == "scp" => {
                for s in all {
                    scopes.push(
                        s.as_str()
                            .ok_or_else(|| invalid("grants a malformed scope"))?,
                    );
                }
            }
            Some(_) => return Err(invalid("grants a malformed scope")),
        }
    }
    let scopes = scopes
        .into_iter()
        .map(|s| Scope::new(s.to_owned()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| invalid("grants a malformed scope"))?;
    let mut token = AccessToken::new(issuer, subject, expires_at, Audience::Values(audience))
        .with_scopes(scopes);
    token.client_id = client_id;
    Ok(token.with_claims(claims))
}

/// A NumericDate (RFC 7519 §2: seconds since the epoch, possibly fractional) as a time.
fn numeric_date(v: &Value) -> Option<SystemTime> {
    let secs = match (v.as_u64(), v.as_f64()) {
        (Some(s), _) => Duration::from_secs(s),
        (None, Some(f)) => Duration::try_from_secs_f64(f).ok()?,
        _ => return None,
    };
    (secs.as_secs() <= MAX_NUMERIC_DATE).then(|| SystemTime::UNIX_EPOCH + secs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ISS: &str = "https://id.example";

    fn at(claims: Value) -> Result<AccessToken, AuthError> {
        let Value::Object(map) = claims else {
            unreachable!()
        };
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        access_token(map, ISS, Duration::from_secs(30), now)
    }

    fn base() -> Value {
        json!({"iss": ISS, "sub": "alice", "exp": 1_000_060, "aud": "https://books.example/mcp"})
    }

    fn with(extra: Value) -> Value {
        let mut b = base();
        for (k, v) in extra.as_object().unwrap() {
            if v.is_null() {
                b.as_object_mut().unwrap().remove(k);
            } else {
                b[k] = v.clone();
            }
        }
        b
    }

    #[test]
    fn the_claims_become_the_token() {
        let t = at(with(json!({
            "azp": "app", "scope": "books:read  orders:write", "scp": ["profile"],
            "aud": ["a", "b"], "extra": {"x": 1}
        })))
        .unwrap();
        assert_eq!(t.subject, "alice");
        assert_eq!(t.client_id.as_deref(), Some("app"));
        let scopes: Vec<&str> = t.scopes.iter().map(Scope::as_str).collect();
        assert_eq!(scopes, ["books:read", "orders:write", "profile"]);
        assert_eq!(t.audience, Audience::Values(vec!["a".into(), "b".into()]));
        assert_eq!(t.claims["extra"], json!({"x": 1}));
        let t = at(with(
            json!({"client_id": "c", "azp": "p", "scp": "a b", "aud": null}),
        ))
        .unwrap();
        assert_eq!(t.client_id.as_deref(), Some("c"));
        assert_eq!(t.scopes.len(), 2);
        assert_eq!(t.audience, Audience::Values(vec![]));
        // A fractional NumericDate is a NumericDate.
        assert!(at(with(json!({"exp": 1_000_060.5}))).is_ok());
    }

    #[test]
    fn each_bad_claim_has_its_own_general_answer() {
        for (claims, want) in [
            (
                json!({"iss": "https://other.example"}),
                "was issued by another issuer",
            ),
            (json!({"iss": [ISS]}), "names no issuer"),
            (json!({"iss": null}), "names no issuer"),
            (json!({"sub": null}), "names no subject"),
            (json!({"sub": ""}), "names no subject"),
            (json!({"exp": null}), "has no expiry"),
            (json!({"exp": "soon"}), "has a malformed expiry"),
            (json!({"exp": -5}), "has a malformed expiry"),
            (json!({"exp": u64::MAX}), "has a malformed expiry"),
            (json!({"exp": 999_970}), "expired"),
            (json!({"nbf": 1_000_031}), "is not valid yet"),
            (json!({"nbf": "x"}), "has a malformed not-before time"),
            (json!({"aud": 5}), "has a malformed audience"),
            (json!({"aud": ["a", 1]}), "has a malformed audience"),
            (json!({"client_id": 7}), "has a malformed client id"),
            (json!({"scope": "a \"b"}), "grants a malformed scope"),
            (json!({"scope": ["a"]}), "grants a malformed scope"),
            (json!({"scp": [1]}), "grants a malformed scope"),
            (json!({"scp": "é"}), "grants a malformed scope"),
        ] {
            let got = at(with(claims.clone())).map(|_| ()).unwrap_err();
            assert_eq!(got, invalid(want), "{claims}");
        }
        // Inside the leeway on both sides.
        assert!(at(with(json!({"exp": 999_971, "nbf": 1_000_030}))).is_ok());
    }
}
