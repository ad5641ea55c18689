//! The Protected Resource Metadata document, the bearer check before anything else is read,
//! and the RFC 6750 challenges of a missing, malformed or invalid token; an unavailable
//! verifier; and no token ever reaching the logs.

use super::bookshop::*;
use crate::support::http::*;
use http::{Method, StatusCode};
use rondo_mcp::protocol::Revision;
use rondo_tests::logs::Captured;
use serde_json::json;

#[tokio::test]
async fn the_metadata_document_is_public_and_names_the_configured_url() {
    let s = protected().await;
    for path in [PRM, PRM_ROOT] {
        // A browser client on another origin reads it: no token, no Origin allow-list.
        let r = metadata(s.addr, Method::GET, path, Some("https://app.example")).await;
        assert_eq!(r.status, StatusCode::OK, "{path}");
        assert_eq!(header(&r, "access-control-allow-origin"), "*");
        assert_eq!(header(&r, "cache-control"), "max-age=3600");
        let doc = r.json().await;
        assert_eq!(
            doc,
            json!({
                "resource": URL,
                "authorization_servers": [ISSUER],
                "bearer_methods_supported": ["header"],
                // Derived from the declarations (`order`) and the required scopes.
                "scopes_supported": ["orders:write", "books:read"],
                "resource_name": "Bookshop",
            })
        );
    }
    let head = metadata(s.addr, Method::HEAD, PRM, None).await;
    assert_eq!(head.status, StatusCode::OK);
    assert!(header(&head, "content-length").parse::<usize>().unwrap() > 50);
    assert!(head.text().await.is_empty());
    let pre = metadata(s.addr, Method::OPTIONS, PRM, Some("https://app.example")).await;
    assert_eq!(pre.status, StatusCode::NO_CONTENT);
    assert_eq!(header(&pre, "access-control-allow-origin"), "*");
    assert!(header(&pre, "access-control-allow-headers").contains("Authorization"));
    let post = metadata(s.addr, Method::POST, PRM, None).await;
    assert_eq!(post.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(header(&post, "allow"), "GET, HEAD, OPTIONS");
    // Other paths are still not served, and the endpoint itself still checks Origin.
    let other = metadata(s.addr, Method::GET, "/.well-known/other", None).await;
    assert_eq!(other.status, StatusCode::NOT_FOUND);
    let foreign = post_modern(s.addr, &call(1, "whoami"), |h| {
        h.push(("origin".into(), "https://app.example".into()));
        h.push(("authorization".into(), bearer("alice-read")));
    })
    .await;
    assert_eq!(foreign.status, StatusCode::FORBIDDEN);
    s.stop().await;
}

#[tokio::test]
async fn the_metadata_document_still_needs_an_allowed_host() {
    let s = protected().await;
    let mut req = http::Request::builder().method(Method::GET).uri(PRM);
    req = req.header("host", "evil.example");
    let req = req
        .body(http_body_util::Full::new(bytes::Bytes::new()))
        .unwrap();
    let r = Checks::new(Revision::V2026_07_28).send(s.addr, req).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    s.stop().await;
}

#[tokio::test]
async fn no_credentials_get_a_challenge_without_an_error_code() {
    let s = protected().await;
    for auth in [None, Some("Basic YWxpY2U6c2VjcmV0")] {
        let (ps, body) = challenge(
            call_as(s.addr, "order", auth).await,
            StatusCode::UNAUTHORIZED,
        )
        .await;
        assert_eq!(
            param(&ps, "error"),
            None,
            "RFC 6750 §3.1: no error code: {ps:?}"
        );
        assert_eq!(param(&ps, "scope"), Some("books:read"));
        assert!(body.get("error").is_none(), "{body}");
        assert!(
            body["error_description"]
                .as_str()
                .unwrap()
                .contains("access token")
        );
    }
    assert_eq!(orders_of("alice"), 0);
    s.stop().await;
}

#[tokio::test]
async fn malformed_credentials_are_a_bad_request() {
    let s = protected().await;
    for edit in [
        vec!["Bearer".to_owned()],
        vec!["Bearer ".to_owned()],
        vec!["Bearer a b".to_owned()],
        vec![bearer("alice-write"), bearer("alice-write")],
    ] {
        let r = post_modern(s.addr, &call(1, "order"), |h| {
            for v in &edit {
                h.push(("authorization".into(), v.clone()));
            }
        })
        .await;
        let (ps, body) = challenge(r, StatusCode::BAD_REQUEST).await;
        assert_eq!(param(&ps, "error"), Some("invalid_request"), "{edit:?}");
        assert_eq!(body["error"], "invalid_request");
    }
    assert_eq!(orders_of("alice"), 0);
    s.stop().await;
}

#[tokio::test]
async fn invalid_tokens_get_invalid_token_and_the_tool_never_runs() {
    let s = protected().await;
    for (tok, why) in [
        ("forged", "not valid"),
        ("expired", "expired"),
        ("other-audience", "another resource"),
        ("no-audience", "no audience"),
    ] {
        let r = call_as(s.addr, "order", Some(&bearer(tok))).await;
        let (ps, body) = challenge(r, StatusCode::UNAUTHORIZED).await;
        assert_eq!(param(&ps, "error"), Some("invalid_token"), "{tok}");
        assert_eq!(param(&ps, "scope"), Some("books:read"), "{tok}");
        let d = param(&ps, "error_description").unwrap();
        assert!(d.contains(why), "{tok}: {d}");
        assert!(
            !d.contains("t0k."),
            "the description never echoes the token: {d}"
        );
        assert_eq!(body["error"], "invalid_token");
    }
    assert_eq!(orders_of("alice"), 0);
    s.stop().await;
}

#[tokio::test]
async fn the_audience_is_matched_canonically() {
    let s = protected().await;
    let r = call_as(s.addr, "whoami", Some(&bearer("loud-audience"))).await;
    assert_eq!(r.status, StatusCode::OK);
    let msg = r.json().await;
    assert_eq!(
        msg["result"]["structuredContent"]["subject"], "gina",
        "{msg}"
    );
    s.stop().await;
}

#[tokio::test]
async fn the_token_is_checked_before_the_body_is_read() {
    // A client that promises a large body and sends none is answered at once: an anonymous
    // client cannot make the server hold a body for `body_timeout`.
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let s = protected().await;
    let mut c = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: {}\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\ncontent-length: 1000000\r\n\r\n",
        s.addr
    );
    c.write_all(head.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 4096];
    let n = bounded("the 401 before any body byte", c.read(&mut buf))
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&buf[..n]);
    assert!(text.starts_with("HTTP/1.1 401"), "{text}");
    assert!(
        text.to_ascii_lowercase()
            .contains("www-authenticate: bearer"),
        "{text}"
    );
    s.stop().await;
}

#[tokio::test]
async fn an_unavailable_verifier_is_a_server_error_without_a_challenge() {
    let s = start_service(service(true, false)).await;
    let r = call_as(s.addr, "whoami", Some(&bearer("alice-read"))).await;
    assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(r.headers.get("www-authenticate").is_none());
    s.stop().await;
}

#[tokio::test]
async fn tokens_never_reach_the_logs() {
    let logs = Captured::default();
    let subscriber = logs.subscriber(tracing::Level::TRACE);
    // `#[tokio::test]` runs the server's tasks on this thread, so they log here.
    let _default = tracing::subscriber::set_default(subscriber);
    let s = protected().await;
    for tok in [
        "alice-read",
        "dave-read",
        "forged",
        "expired",
        "other-audience",
    ] {
        let _ = call_as(s.addr, "order", Some(&bearer(tok)))
            .await
            .text()
            .await;
    }
    let _ = call_as(s.addr, "audit", Some(&bearer("alice-read")))
        .await
        .text()
        .await;
    let _ = call_as(s.addr, "whoami", Some("Bearer t0k.a t0k.b"))
        .await
        .text()
        .await;
    s.stop().await;
    let logs = logs.text();
    assert!(
        logs.contains("insufficient"),
        "the refusals are logged: {logs}"
    );
    assert!(!logs.contains("t0k."), "a token reached the logs: {logs}");
}
