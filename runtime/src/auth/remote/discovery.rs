//! Issuer discovery: the authorization server's metadata document (RFC 8414 §3, OpenID
//! Connect Discovery 1.0 §4), whose `issuer` must be the configured one and whose `jwks_uri`
//! names the keys.

use super::client::{FetchError, Fetcher, check_url};
use http::Uri;
use serde_json::Value;

/// The metadata URLs of `issuer`, in the order MCP clients try them: for an issuer with a
/// path, RFC 8414 path-inserted, OpenID path-inserted, OpenID appended; without a path the
/// first two (RFC 8414 §3.1: the terminating `/` of the issuer is removed first).
pub(crate) fn metadata_urls(issuer: &str) -> Result<Vec<String>, String> {
    let uri = check_url(issuer).map_err(|e| format!("the issuer {e}"))?;
    if uri.query().is_some() || issuer.contains('#') {
        return Err("the issuer cannot have a query or fragment (RFC 8414 §2)".into());
    }
    let scheme = uri.scheme_str().unwrap_or("https");
    let authority = uri.authority().map_or("", |a| a.as_str());
    let origin = format!("{scheme}://{authority}");
    let path = uri.path().trim_end_matches('/');
    let mut urls = vec![
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{origin}/.well-known/openid-configuration{path}"),
    ];
    if !path.is_empty() {
        urls.push(format!("{origin}{path}/.well-known/openid-configuration"));
    }
    Ok(urls)
}

/// The `jwks_uri` of `issuer`'s metadata: each URL in turn until one answers 200 (another
/// status goes on to the next; a network failure stops); the document's `issuer` must equal
/// `issuer` exactly (RFC 8414 §3.3).
pub(crate) async fn discover(fetcher: &Fetcher, issuer: &str) -> Result<Uri, String> {
    let mut last = String::from("no metadata document");
    for url in metadata_urls(issuer)? {
        let Ok(uri) = url.parse::<Uri>() else {
            continue;
        };
        let fetched = match fetcher.get(&uri).await {
            Ok(f) => f,
            Err(FetchError::Status(s)) => {
                last = format!("{url} answered HTTP {s}");
                continue;
            }
            Err(e) => return Err(format!("{url} {e}")),
        };
        let doc: Value = serde_json::from_slice(&fetched.body)
            .map_err(|_| format!("{url} is not a JSON document"))?;
        if doc.get("issuer").and_then(Value::as_str) != Some(issuer) {
            return Err(format!(
                "{url} names another issuer than the configured one (RFC 8414 §3.3)"
            ));
        }
        let jwks = doc
            .get("jwks_uri")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{url} has no jwks_uri"))?;
        return check_url(jwks).map_err(|e| format!("the jwks_uri of {url}: {e}"));
    }
    Err(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_well_known_suffix_goes_before_the_issuers_path() {
        assert_eq!(
            metadata_urls("https://id.example/tenant/1/").unwrap(),
            [
                "https://id.example/.well-known/oauth-authorization-server/tenant/1",
                "https://id.example/.well-known/openid-configuration/tenant/1",
                "https://id.example/tenant/1/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            metadata_urls("https://id.example").unwrap(),
            [
                "https://id.example/.well-known/oauth-authorization-server",
                "https://id.example/.well-known/openid-configuration",
            ]
        );
        assert!(metadata_urls("http://id.example").is_err());
        assert!(metadata_urls("https://id.example/?a=1").is_err());
    }
}
