//! The introspection verifier against an in-process RFC 7662 endpoint that checks the
//! client's Basic credentials and answers from a table.

use super::*;
use crate::auth::remote::test_server::{As, Route};
use serde_json::json;

const ISS: &str = "https://id.example";
const PATH: &str = "/introspect";

fn now() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// An endpoint knowing `table` (token → answer), requiring Basic `rs:s3cret&=`.
async fn endpoint(table: Vec<(&'static str, Value)>, delay: Duration) -> As {
    let server = As::start().await;
    let table: HashMap<String, Value> = table.into_iter().map(|(k, v)| (k.into(), v)).collect();
    // `rs:s3cret&=` form-encoded (RFC 6749 §2.3.1), then base64.
    let basic = format!(
        "basic {}",
        base64::engine::general_purpose::STANDARD.encode("rs:s3cret%26%3D")
    );
    server.handle(move |path, head, body| {
        if path != PATH {
            return None;
        }
        let authorized = head
            .lines()
            .any(|l| l.eq_ignore_ascii_case(&format!("authorization: {basic}")));
        let form = String::from_utf8_lossy(body);
        let token = form
            .split('&')
            .find_map(|p| p.strip_prefix("token="))
            .map(|t| {
                percent_encoding::percent_decode_str(t)
                    .decode_utf8_lossy()
                    .into_owned()
            });
        let (status, answer) = match (authorized, token) {
            (false, _) => (401, json!({"error": "invalid_client"})),
            (true, Some(t)) => (
                200,
                table.get(&t).cloned().unwrap_or(json!({"active": false})),
            ),
            (true, None) => (400, json!({"error": "invalid_request"})),
        };
        Some(Route {
            status,
            body: answer.to_string().into_bytes(),
            delay,
        })
    });
    server
}

fn verifier(server: &As) -> IntrospectionVerifierBuilder {
    let auth = ClientAuth::Basic {
        id: "rs".into(),
        secret: "s3cret&=".into(),
    };
    IntrospectionVerifier::builder(ISS, &server.url(PATH), auth)
}

fn active(aud: Option<&str>) -> Value {
    let mut a = json!({"active": true, "sub": "alice", "client_id": "app",
                       "scope": "books:read", "exp": now() + 600});
    if let Some(aud) = aud {
        a["aud"] = json!(aud);
    }
    a
}

async fn check(v: &IntrospectionVerifier, token: &str) -> Result<AccessToken, AuthError> {
    v.check(token).await
}

#[tokio::test]
async fn answers_become_tokens_or_refusals() {
    let mut no_exp = active(Some("https://books.example/mcp"));
    no_exp.as_object_mut().unwrap().remove("exp");
    let mut other_iss = active(Some("x"));
    other_iss["iss"] = json!("https://evil.example");
    let server = endpoint(
        vec![
            ("good+/=token", active(Some("https://books.example/mcp"))),
            ("no-aud", active(None)),
            ("no-exp", no_exp),
            ("other-iss", other_iss),
            ("not-object", json!([true])),
        ],
        Duration::ZERO,
    )
    .await;
    let v = verifier(&server).build().unwrap();
    let t = check(&v, "good+/=token").await.unwrap();
    assert_eq!((t.issuer.as_str(), t.subject.as_str()), (ISS, "alice"));
    assert_eq!(t.client_id.as_deref(), Some("app"));
    assert!(t.scopes.contains("books:read"));
    assert_eq!(
        t.audience,
        Audience::Values(vec!["https://books.example/mcp".into()])
    );
    let invalid = |s: &str| AuthError::Invalid(s.into());
    assert_eq!(
        check(&v, "unknown").await.unwrap_err(),
        invalid("The access token is not active")
    );
    assert_eq!(
        check(&v, "no-exp").await.unwrap_err(),
        invalid("The access token has no expiry")
    );
    assert_eq!(
        check(&v, "other-iss").await.unwrap_err(),
        invalid("The access token was issued by another issuer")
    );
    assert!(matches!(
        check(&v, "not-object").await,
        Err(AuthError::Unavailable(_))
    ));
    // Without `aud`: an empty audience (the resource server refuses it) unless vouched.
    assert_eq!(
        check(&v, "no-aud").await.unwrap().audience,
        Audience::Values(vec![])
    );
    let vouched = verifier(&server)
        .audience_vouched_by("one introspection client per resource server")
        .build()
        .unwrap();
    assert!(matches!(
        check(&vouched, "no-aud").await.unwrap().audience,
        Audience::Vouched(_)
    ));
    // Wrong client credentials: the endpoint says 401, which is no answer about the token.
    let wrong = IntrospectionVerifier::builder(
        ISS,
        &server.url(PATH),
        ClientAuth::Basic {
            id: "rs".into(),
            secret: "wrong".into(),
        },
    )
    .build()
    .unwrap();
    assert!(matches!(
        check(&wrong, "good+/=token").await,
        Err(AuthError::Unavailable(_))
    ));
}

#[tokio::test]
async fn answers_are_cached_by_digest_within_the_bound() {
    let server = endpoint(
        vec![
            ("a", active(Some("x"))),
            ("b", active(Some("x"))),
            ("c", active(Some("x"))),
        ],
        Duration::ZERO,
    )
    .await;
    let v = verifier(&server).cache_entries(2).build().unwrap();
    assert!(check(&v, "a").await.is_ok());
    assert!(check(&v, "a").await.is_ok());
    assert_eq!(server.hits(PATH), 1, "the second check is a cache hit");
    assert!(check(&v, "nope").await.is_err());
    assert!(check(&v, "nope").await.is_err());
    assert_eq!(server.hits(PATH), 2, "a refusal is cached too");
    // A third and fourth token push the oldest out of the two-entry cache.
    assert!(check(&v, "b").await.is_ok());
    assert!(check(&v, "c").await.is_ok());
    assert_eq!(server.hits(PATH), 4);
    assert!(check(&v, "a").await.is_ok());
    assert_eq!(server.hits(PATH), 5, "evicted, so asked again");
    assert!(v.inner.cache().entries.len() <= 2);
    // A TTL of zero caches nothing.
    let uncached = verifier(&server).cache_ttl(Duration::ZERO).build().unwrap();
    assert!(check(&uncached, "a").await.is_ok());
    assert!(check(&uncached, "a").await.is_ok());
    assert_eq!(server.hits(PATH), 7);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_most_max_in_flight_calls_run_at_once() {
    let server = endpoint(vec![], Duration::from_millis(100)).await;
    let v = verifier(&server).max_in_flight(8).build().unwrap();
    let mut set = tokio::task::JoinSet::new();
    for n in 0..40 {
        let v = v.clone();
        set.spawn(async move { check(&v, &format!("random-{n}")).await });
    }
    for r in set.join_all().await {
        assert_eq!(
            r.unwrap_err(),
            AuthError::Invalid("The access token is not active".into())
        );
    }
    assert_eq!(server.hits(PATH), 40);
    assert!(server.most_busy() <= 8, "{}", server.most_busy());
    assert!(server.most_busy() >= 2, "{}", server.most_busy());
    // A turn that does not come within the fetch timeout is Unavailable, not a wait forever.
    let slow = endpoint(vec![], Duration::from_millis(600)).await;
    let v = verifier(&slow)
        .max_in_flight(1)
        .fetch_timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let (a, b) = tokio::join!(check(&v, "one"), check(&v, "two"));
    assert!(matches!(a, Err(AuthError::Unavailable(_))));
    assert!(matches!(b, Err(AuthError::Unavailable(_))));
}

#[test]
fn the_endpoint_is_checked_and_secrets_are_not_shown() {
    let auth = ClientAuth::Basic {
        id: "rs".into(),
        secret: "hidden".into(),
    };
    assert!(!format!("{auth:?}").contains("hidden"));
    let bad = IntrospectionVerifier::builder(ISS, "http://id.example/introspect", auth.clone());
    assert!(bad.build().unwrap_err().to_string().contains("https"));
    let none = IntrospectionVerifier::builder(ISS, "https://id.example/i", auth).max_in_flight(0);
    assert!(none.build().is_err());
}
