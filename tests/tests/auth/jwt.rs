//! The JWT verifier (`auth-jwt`) behind the resource server, with tokens minted by the test
//! authorization server's helper (`rondo_tests::auth_as`): the whole token check of a request
//! short of HTTP.

use rondo_mcp::auth::{Algorithm, JwtVerifier, Refused, ResourceServer};
use rondo_tests::auth_as::{self, ISSUER, TestKey};
use serde_json::json;
use std::time::SystemTime;

const URL: &str = "https://books.example/mcp";

fn server() -> ResourceServer {
    let jwks = serde_json::from_value(auth_as::jwks()).unwrap();
    let verifier = JwtVerifier::builder(ISSUER)
        .algorithms([Algorithm::RS256, Algorithm::ES256])
        .jwks(&jwks)
        .require_at_jwt(true)
        .build()
        .unwrap();
    ResourceServer::builder(URL)
        .authorization_server(ISSUER)
        .verifier(verifier)
        .required_scopes(["books:read"])
        .build()
        .unwrap()
}

async fn check(rs: &ResourceServer, token: &str) -> Result<String, Refused> {
    let header = format!("Bearer {token}");
    let at = rs
        .authenticate(&[header.as_bytes()], SystemTime::now())
        .await?;
    Ok(at.principal().key().to_owned())
}

#[tokio::test]
async fn minted_tokens_pass_or_fail_the_whole_check() {
    let rs = server();
    let good = auth_as::claims(URL, "books:read");
    let key = check(&rs, &auth_as::mint(good.clone())).await.unwrap();
    let ec = auth_as::mint_with(TestKey::Ec, Some("ec-1"), &good);
    assert_eq!(
        check(&rs, &ec).await.unwrap(),
        key,
        "same identity, another key"
    );
    let invalid = |s: &str| Err(Refused::Invalid(s.into()));
    let mut other_aud = good.clone();
    other_aud["aud"] = json!("https://books.example/other");
    let mut no_aud = good.clone();
    no_aud.as_object_mut().unwrap().remove("aud");
    let mut expired = good.clone();
    expired["exp"] = json!(auth_as::now() - 120);
    let mut wrong_iss = good.clone();
    wrong_iss["iss"] = json!("https://evil.example");
    for (token, want) in [
        (
            auth_as::mint(other_aud),
            invalid("The access token was issued for another resource"),
        ),
        (
            auth_as::mint(no_aud),
            invalid("The access token names no audience"),
        ),
        (auth_as::mint(expired), invalid("The access token expired")),
        (
            auth_as::mint(wrong_iss),
            invalid("The access token was issued by another issuer"),
        ),
        (
            auth_as::mint_with(TestKey::Untrusted, Some(auth_as::KID), &good),
            invalid("The access token has an invalid signature"),
        ),
        (
            auth_as::mint_with(TestKey::Rotated, Some("rsa-2"), &good),
            invalid("The access token is signed by an unknown key"),
        ),
    ] {
        assert_eq!(check(&rs, &token).await, want);
    }
    let few = auth_as::mint(auth_as::claims(URL, "profile"));
    assert!(matches!(check(&rs, &few).await, Err(Refused::Scope(_))));
}
