//! The HTTP+SSE transport on a protected endpoint (feature `auth`): the stream needs a token,
//! the session is bound to the token's principal, a tool's scopes are checked on the POST,
//! and the stream closes when the token that opened it expires.

use crate::support::http::sse::{self, SseSession, get};
use crate::support::http::*;
use http::StatusCode;
use rondo_mcp::auth::{AuthError, ResourceServer, TokenVerifier};
use rondo_mcp::http::HttpConfig;
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{JsonObject, Revision};
use rondo_mcp::{AccessToken, Audience, BearerToken, BoxFuture, Scope, ToolHandler};
use serde_json::json;
use std::time::{Duration, SystemTime};

const URL: &str = "http://localhost/mcp";
const V24: Revision = Revision::V2024_11_05;

/// `whoami`: the caller's subject.
struct WhoAmI;

impl ToolHandler for WhoAmI {
    const NAME: &'static str = "whoami";
    fn definition() -> Tool {
        Tool::new("whoami", "The caller", Tool::no_arguments())
    }
    fn call<'a>(cx: &'a Cx, _: &'a JsonObject) -> BoxFuture<'a, Result<CallToolResult, Error>> {
        let who = cx.principal().map_or("nobody", |p| p.subject()).to_owned();
        Box::pin(async move { Ok(CallToolResult::text(who)) })
    }
}

/// `order`: needs `orders:write`.
struct Order;

impl ToolHandler for Order {
    const NAME: &'static str = "order";
    const SCOPES: &'static [Scope] = &[Scope::from_static("orders:write")];
    fn definition() -> Tool {
        Tool::new("order", "Orders", Tool::no_arguments())
    }
    fn call<'a>(_: &'a Cx, _: &'a JsonObject) -> BoxFuture<'a, Result<CallToolResult, Error>> {
        Box::pin(async { Ok(CallToolResult::text("ordered")) })
    }
}

/// Tokens `t0k.alice`, `t0k.bob` (an hour each) and `t0k.brief` (a second and a half).
struct Tokens;

impl TokenVerifier for Tokens {
    fn verify<'a>(&'a self, t: &'a BearerToken) -> BoxFuture<'a, Result<AccessToken, AuthError>> {
        Box::pin(async move {
            let (sub, life) = match t.expose() {
                "t0k.alice" => ("alice", Duration::from_secs(3600)),
                "t0k.bob" => ("bob", Duration::from_secs(3600)),
                "t0k.brief" => ("kim", Duration::from_millis(1500)),
                _ => return Err(AuthError::Invalid("The access token is not valid".into())),
            };
            let exp = SystemTime::now() + life;
            Ok(AccessToken::new(
                "https://id.example",
                sub,
                exp,
                Audience::Values(vec![URL.into()]),
            )
            .with_scopes([Scope::from_static("books:read")]))
        })
    }
}

async fn protected() -> Running {
    let rs = ResourceServer::builder(URL)
        .authorization_server("https://id.example")
        .verifier(Tokens)
        // The stream of a token ends at its expiry itself, not 30 s after.
        .leeway(Duration::ZERO)
        .build()
        .expect("a resource server");
    let tools = rondo_mcp::ToolSet::new().with::<WhoAmI>().with::<Order>();
    let router = Router::new(ServerInfo::new("protected", "1.0.0")).tools(tools);
    start(Server::new(router), HttpConfig::default().protect(rs)).await
}

#[tokio::test]
async fn the_stream_needs_a_token_and_the_session_is_its_principals() {
    let running = protected().await;
    let addr = running.addr;
    let (status, _) = get(addr, "/sse", &[]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    let alice = [("authorization", "Bearer t0k.alice")];
    let mut s = SseSession::open_with(addr, V24, &alice).await;
    s.initialize("2024-11-05", json!({})).await;
    let call = |id: i64, name: &str| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": name, "arguments": {}}})
    };
    let by_bob = sse::post(
        &s.endpoint,
        &[("authorization", "Bearer t0k.bob")],
        call(1, "whoami").to_string(),
    );
    let r = Checks::new(V24)
        .skip("JSONRPCError", "a transport refusal names no id")
        .send(addr, by_bob)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "another principal's POST");
    let none = sse::post(&s.endpoint, &[], call(1, "whoami").to_string());
    let r = Checks::new(V24)
        .skip("JSONRPCError", "a transport refusal names no id")
        .send(addr, none)
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "a POST without a token");

    s.send(&call(2, "whoami")).await;
    assert_eq!(text(&s.message().await), "alice");

    // A tool's scope is checked on the POST, which is refused with the challenge.
    let r = s.post(&call(3, "order")).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let challenge = r.headers["www-authenticate"].to_str().expect("ascii");
    assert!(challenge.contains("insufficient_scope"), "{challenge}");
    assert_eq!(s.call(4, "ping", json!({})).await["result"], json!({}));
    running.stop().await;
}

#[tokio::test]
async fn the_stream_closes_when_its_token_expires() {
    let running = protected().await;
    let brief = [("authorization", "Bearer t0k.brief")];
    let mut s = SseSession::open_with(running.addr, V24, &brief).await;
    s.initialize("2024-11-05", json!({})).await;
    let end = bounded("the token expires", s.event()).await;
    assert_eq!(end, None, "the stream ends");
    running.stop().await;
}
