//! Sessions and streams bound to the token: a 2025-11-25 session belongs to the token's
//! principal (and a principal set by the app is ignored), a step-up between rounds keeps the
//! answers, and streams end when the token that opened them expires.

use super::bookshop::*;
use crate::support::http::*;
use http::{Method, StatusCode};
use rondo_mcp::http::HttpConfig;
use rondo_mcp::prelude::*;
use serde_json::{Value, json};
use std::time::Duration;

#[tokio::test]
async fn sessions_need_a_token_and_are_bound_to_its_principal() {
    let s = protected().await;
    // No token: the initialize is refused like any request.
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}});
    let r = send(s.addr, request(Method::POST, &[ACCEPT], Some(&init))).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);

    let erin = Session::open_as(s.addr, Some(&bearer("erin-read"))).await;
    let order = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "order", "arguments": {}}});
    // Too few scopes at 2025-11-25: the same 403, before the tool runs.
    let (ps, _) = challenge(erin.post(&order).await, StatusCode::FORBIDDEN).await;
    assert_eq!(param(&ps, "scope"), Some("orders:write books:read"));
    assert_eq!(orders_of("erin"), 0);
    // Another user's token cannot use erin's session.
    erin.authorize(Some(&bearer("bob-write")));
    assert_eq!(erin.post(&order).await.status, StatusCode::NOT_FOUND);
    assert_eq!(orders_of("bob"), 0);
    // Erin's stepped-up token keeps her session.
    erin.authorize(Some(&bearer("erin-write")));
    let mut r = erin.post(&order).await;
    assert_eq!(r.status, StatusCode::OK);
    let msg = if r.content_type() == "text/event-stream" {
        r.event().await.expect("the response")
    } else {
        r.json().await
    };
    assert_eq!(text(&msg), "ordered");
    assert_eq!(orders_of("erin"), 1);
    // GET and DELETE need the token too.
    erin.authorize(None);
    assert_eq!(
        erin.send(Method::DELETE, None).await.status,
        StatusCode::UNAUTHORIZED
    );
    erin.authorize(Some(&bearer("erin-write")));
    assert_eq!(erin.send(Method::DELETE, None).await.status, StatusCode::OK);
    s.stop().await;
}

#[tokio::test]
async fn a_principal_from_the_extensions_is_ignored_on_a_protected_endpoint() {
    // The axum app's layer puts `Principal::new("alice")` into every request; the protected
    // endpoint trusts only the token.
    let svc = service(false, false);
    let paths = svc.metadata_paths();
    assert_eq!(paths, [PRM, PRM_ROOT]);
    let app = AxumApp::start_with(svc, &paths).await;
    let r = call_as(app.addr, "whoami", None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    // Mounted through `metadata_paths`, the document is served by the axum app too.
    let doc = metadata(app.addr, Method::GET, PRM, None).await;
    assert_eq!(doc.status, StatusCode::OK);
    assert_eq!(doc.json().await["resource"], URL);
    app.stop().await;
}

#[tokio::test]
async fn a_step_up_between_rounds_keeps_the_answers() {
    let s = protected().await;
    let first = call(1, "checkout");
    let as_ = |tok: &'static str| {
        move |h: &mut Vec<(String, String)>| {
            h.push(("authorization".into(), bearer(tok)));
        }
    };
    // Round 1 with a read-only token: the question.
    let irr = post_modern(s.addr, &first, as_("ivan-read"))
        .await
        .json()
        .await;
    assert_eq!(irr["result"]["resultType"], "input_required", "{irr}");
    let state = irr["result"]["requestState"].clone();
    let retry = modern(
        2,
        "tools/call",
        json!({"name": "checkout", "arguments": {}, "requestState": state,
            "inputResponses": {"confirm": {"action": "accept", "content": {"ok": true}}}}),
    );
    // Round 2: the answer is in, and now the tool needs `orders:write`: a 403 to step up.
    let (ps, body) = challenge(
        post_modern(s.addr, &retry, as_("ivan-read")).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(param(&ps, "error"), Some("insufficient_scope"));
    assert_eq!(param(&ps, "scope"), Some("orders:write books:read"));
    assert_eq!(body["scope"], "orders:write books:read");
    assert_eq!(asked_of("ivan"), 1);
    // Another user cannot use the state, whatever their scopes.
    let other = post_modern(s.addr, &retry, as_("judy-write"))
        .await
        .json()
        .await;
    assert_eq!(other["error"]["code"], -32602, "{other}");
    assert_eq!(other["error"]["message"], "Invalid or expired requestState");
    // The same retry with the stepped-up token completes: the state and its answer are kept
    // (the replay guard serves the same round, same state and answers, again).
    let done = post_modern(s.addr, &retry, as_("ivan-write"))
        .await
        .json()
        .await;
    assert_eq!(text(&done), "checked out", "{done}");
    assert_eq!(
        asked_of("ivan"),
        2,
        "the tool ran again, with the kept answer"
    );
    // Now the round is taken for these answers: other answers are refused.
    let declined = modern(
        2,
        "tools/call",
        json!({"name": "checkout", "arguments": {}, "requestState": irr["result"]["requestState"],
            "inputResponses": {"confirm": {"action": "decline"}}}),
    );
    let replay = post_modern(s.addr, &declined, as_("ivan-write"))
        .await
        .json()
        .await;
    assert_eq!(replay["error"]["code"], -32602, "{replay}");
    s.stop().await;
}

#[tokio::test]
async fn streams_end_when_the_token_that_opened_them_expires() {
    let rs = builder(false)
        .leeway(Duration::ZERO)
        .build()
        .expect("a valid resource server");
    let router = Router::new(ServerInfo::new("bookshop", "1.0.0").with_tools_list_changed())
        .tools(rondo_mcp::ToolSet::new().with::<WhoAmI>());
    let s = start(Server::new(router), HttpConfig::default().protect(rs)).await;
    // A 2025-11-25 GET stream and a 2026-07-28 listen stream, both opened under the token.
    let session = Session::open_as(s.addr, Some(&bearer("brief"))).await;
    let get = session.send(Method::GET, None).await;
    assert_eq!(get.status, StatusCode::OK);
    let listen = modern(
        7,
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true}}),
    );
    let mut stream = post_modern(s.addr, &listen, |h| {
        h.push(("authorization".into(), bearer("brief")));
    })
    .await;
    let ack = stream.event().await.expect("ack");
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    // At the token's expiry the listen stream ends as at shutdown: the completion result,
    // then the end; the GET stream closes.
    let done = stream.event().await.expect("completion");
    assert_eq!(done["id"], 7, "{done}");
    assert!(stream.event().await.is_none());
    assert_eq!(get.events().await, Vec::<Value>::new());
    s.stop().await;
}
