//! Fetched keys (`auth-remote`) against an in-process authorization server on 127.0.0.1
//! serving the test JWKS and metadata documents, counting each path's fetches.

use super::tests::{ISS, claims, rs256};
use super::*;
use crate::auth::remote::test_server::As;
use jsonwebtoken::{EncodingKey, Header, encode};
use serde_json::json;

const JWKS: &str = include_str!("../../../../tests/fixtures/auth/jwks.json");
const ROTATED: &str = include_str!("../../../../tests/fixtures/auth/jwks-rotated.json");
const RSA2_KEY: &[u8] = include_bytes!("../../../../tests/fixtures/auth/rsa2.key.pem");
const UNTRUSTED: &[u8] = include_bytes!("../../../../tests/fixtures/auth/untrusted-rsa.key.pem");

fn signed(pem: &[u8], kid: &str, claims: &Value) -> String {
    let mut h = Header::new(Algorithm::RS256);
    h.kid = Some(kid.into());
    encode(&h, claims, &EncodingKey::from_rsa_pem(pem).unwrap()).unwrap()
}

fn from_url(server: &As, min_refresh: Duration) -> JwtVerifier {
    JwtVerifier::builder(ISS)
        .jwks_url(&server.url("/jwks"))
        .min_refresh_interval(min_refresh)
        .fetch_timeout(Duration::from_millis(1500))
        .build()
        .unwrap()
}

async fn check(v: &JwtVerifier, token: &str) -> Result<AccessToken, AuthError> {
    v.check(token, SystemTime::now()).await
}

async fn burst(v: &JwtVerifier, token: &str, n: usize) -> Vec<Result<AccessToken, AuthError>> {
    let mut set = tokio::task::JoinSet::new();
    for _ in 0..n {
        let (v, t) = (v.clone(), token.to_owned());
        set.spawn(async move { check(&v, &t).await });
    }
    set.join_all().await
}

const UNKNOWN: &str = "The access token is signed by an unknown key";

#[tokio::test]
async fn a_rotated_key_is_fetched_once_and_bursts_are_rate_limited() {
    let server = As::start().await;
    server.serve("/jwks", 200, JWKS);
    // An interval long enough for a loaded debug build to verify a burst within it.
    let interval = Duration::from_secs(3);
    let v = from_url(&server, interval);
    assert!(check(&v, &rs256(Some("rsa-1"), &claims())).await.is_ok());
    assert!(check(&v, &rs256(Some("rsa-1"), &claims())).await.is_ok());
    assert_eq!(server.hits("/jwks"), 1, "fetched once, at the first use");
    // The issuer rotates: a token names the new kid; one fetch brings it.
    tokio::time::sleep(interval + Duration::from_millis(100)).await;
    server.serve("/jwks", 200, ROTATED);
    let new = signed(RSA2_KEY, "rsa-2", &claims());
    for r in burst(&v, &new, 20).await {
        assert!(r.is_ok(), "{r:?}");
    }
    assert_eq!(
        server.hits("/jwks"),
        2,
        "20 tokens with the new kid, one fetch"
    );
    // A burst of unknown kids inside the interval: refused at once, no fetch.
    let forged = signed(UNTRUSTED, "rsa-9", &claims());
    for r in burst(&v, &forged, 50).await {
        assert_eq!(r.unwrap_err(), AuthError::Invalid(UNKNOWN.into()));
    }
    assert_eq!(
        server.hits("/jwks"),
        2,
        "within min_refresh_interval: no fetch"
    );
    // After the interval, one more fetch for the whole next burst.
    tokio::time::sleep(interval + Duration::from_millis(100)).await;
    for r in burst(&v, &forged, 50).await {
        assert_eq!(r.unwrap_err(), AuthError::Invalid(UNKNOWN.into()));
    }
    assert_eq!(server.hits("/jwks"), 3);
}

#[tokio::test]
async fn an_unreachable_or_bad_jwks_is_unavailable_and_the_last_good_set_stays() {
    let unavailable = Err(AuthError::Unavailable(
        "The issuer's keys cannot be fetched".into(),
    ));
    // Nothing listens on the port.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/jwks", closed.local_addr().unwrap());
    drop(closed);
    let v = JwtVerifier::builder(ISS).jwks_url(&url).build().unwrap();
    let good = rs256(Some("rsa-1"), &claims());
    assert_eq!(check(&v, &good).await.map(|_| ()), unavailable);

    let server = As::start().await;
    let v = from_url(&server, Duration::ZERO);
    for (status, body) in [
        (500, JWKS.as_bytes().to_vec()),
        (302, Vec::new()),
        (200, b"not json".to_vec()),
        (200, br#"{"keys": []}"#.to_vec()),
        (200, oversized()),
    ] {
        server.serve("/jwks", status, body);
        assert_eq!(check(&v, &good).await.map(|_| ()), unavailable, "{status}");
    }
    // A slow JWKS hits the fetch deadline (1.5 s here; generous for a loaded machine).
    server.serve_slowly("/jwks", 200, JWKS, Duration::from_secs(3));
    let started = std::time::Instant::now();
    assert_eq!(check(&v, &good).await.map(|_| ()), unavailable);
    assert!(
        started.elapsed() < Duration::from_millis(2900),
        "cut before the 3 s answer"
    );
    // Recovery, then a refresh that fails keeps the set.
    server.serve("/jwks", 200, JWKS);
    assert!(check(&v, &good).await.is_ok());
    server.serve("/jwks", 200, oversized());
    let forged = signed(UNTRUSTED, "rsa-9", &claims());
    assert_eq!(
        check(&v, &forged).await.unwrap_err(),
        AuthError::Invalid(UNKNOWN.into())
    );
    assert!(check(&v, &good).await.is_ok(), "the last good set is kept");
}

/// A valid JWKS over the 256 KiB limit (padded with whitespace, so only the limit refuses it).
fn oversized() -> Vec<u8> {
    let mut body = JWKS.as_bytes().to_vec();
    body.resize(257 * 1024, b' ');
    body
}

#[tokio::test]
async fn discovery_finds_the_jwks_and_refuses_another_issuer() {
    let server = As::start().await;
    let issuer = server.url("/tenant");
    let doc = |iss: &str| json!({"issuer": iss, "jwks_uri": server.url("/keys")}).to_string();
    server.serve("/keys", 200, JWKS);
    let mut c = claims();
    c["iss"] = json!(issuer);
    let token = rs256(Some("rsa-1"), &c);
    let discovering = || {
        JwtVerifier::builder(&issuer)
            .discover()
            .min_refresh_interval(Duration::ZERO)
            .build()
            .unwrap()
    };
    // Only the OpenID appended form exists: the first two answer 404 and are passed over.
    server.serve(
        "/tenant/.well-known/openid-configuration",
        200,
        doc(&issuer),
    );
    assert!(check(&discovering(), &token).await.is_ok());
    assert_eq!(
        server.hits("/.well-known/oauth-authorization-server/tenant"),
        1
    );
    assert_eq!(server.hits("/.well-known/openid-configuration/tenant"), 1);
    // The RFC 8414 document comes first when it exists.
    server.serve(
        "/.well-known/oauth-authorization-server/tenant",
        200,
        doc(&issuer),
    );
    let v = discovering();
    assert!(check(&v, &token).await.is_ok());
    assert!(check(&v, &token).await.is_ok());
    assert_eq!(
        server.hits("/.well-known/oauth-authorization-server/tenant"),
        2
    );
    assert_eq!(server.hits("/tenant/.well-known/openid-configuration"), 1);
    // A document naming another issuer is refused (RFC 8414 §3.3).
    let other = format!("{issuer}/");
    server.serve(
        "/.well-known/oauth-authorization-server/tenant",
        200,
        doc(&other),
    );
    assert_eq!(
        check(&discovering(), &token).await.unwrap_err(),
        AuthError::Unavailable("The issuer's keys cannot be fetched".into())
    );
}

#[test]
fn remote_settings_are_checked_at_build() {
    let err = |b: JwtVerifierBuilder| b.build().unwrap_err().to_string();
    assert!(err(JwtVerifier::builder(ISS).jwks_url("http://id.example/jwks")).contains("https"));
    assert!(err(JwtVerifier::builder("http://id.example").discover()).contains("https"));
    let both = JwtVerifier::builder(ISS)
        .jwks_url("https://id.example/jwks")
        .public_key_pem(
            None,
            include_bytes!("../../../../tests/fixtures/auth/rsa.pub.pem"),
        );
    assert!(err(both).contains("not both"));
    let two = JwtVerifier::builder(ISS)
        .jwks_url("https://id.example/jwks")
        .discover();
    assert!(err(two).contains("not both"));
}
