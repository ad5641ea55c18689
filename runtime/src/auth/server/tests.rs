//! The resource server: each token gets its answer, the metadata, the configuration errors.

use super::*;
use crate::identity::{AccessToken, Audience, BearerToken};
use crate::tools::BoxFuture;
use std::collections::HashMap;
use std::time::SystemTime;

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
