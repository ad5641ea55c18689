//! The endpoint as an OAuth 2.1 resource server (feature `auth`): the Protected Resource
//! Metadata document, the bearer check before anything else is read, the RFC 6750 challenges,
//! per-tool scopes at both revisions, identity inside tools, and sessions bound to the
//! token's principal. Tokens come from a table verifier (the JWT verifiers have their own
//! tests); what is under test is what the resource server and the HTTP service do with them.

use crate::support::http::*;
use http::{Method, StatusCode};
use rondo_mcp::auth::{AuthError, ResourceServer, TokenVerifier};
use rondo_mcp::http::{HttpConfig, McpService};
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{JsonObject, Revision};
use rondo_mcp::{AccessToken, Audience, BearerToken, BoxFuture, Scope, ToolHandler};
use rondo_tests::logs::Captured;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

const URL: &str = "http://localhost/mcp";
const ISSUER: &str = "https://id.example";
const PRM: &str = "/.well-known/oauth-protected-resource/mcp";
const PRM_ROOT: &str = "/.well-known/oauth-protected-resource";

/// A count per subject, shared by the tests of this file (each uses its own subjects).
struct Counts(Mutex<Option<HashMap<String, usize>>>);

impl Counts {
    const fn new() -> Self {
        Counts(Mutex::new(None))
    }
    fn bump(&self, cx: &Cx) {
        let who = cx.principal().map(|p| p.subject().to_owned());
        let mut m = self.0.lock().unwrap();
        *m.get_or_insert_with(HashMap::new)
            .entry(who.unwrap_or_default())
            .or_default() += 1;
    }
    fn of(&self, subject: &str) -> usize {
        let m = self.0.lock().unwrap();
        m.as_ref()
            .and_then(|m| m.get(subject))
            .copied()
            .unwrap_or(0)
    }
}

/// How often each subject's `order` ran: a refused call must leave it unchanged.
static ORDERS: Counts = Counts::new();

fn orders_of(subject: &str) -> usize {
    ORDERS.of(subject)
}

/// `order`: needs `orders:write`; counts its runs per subject.
struct Order;

impl ToolHandler for Order {
    const NAME: &'static str = "order";
    const SCOPES: &'static [Scope] = &[Scope::from_static("orders:write")];
    fn definition() -> Tool {
        Tool::new("order", "Orders a book", Tool::no_arguments())
    }
    fn call<'a>(cx: &'a Cx, _: &'a JsonObject) -> BoxFuture<'a, Result<CallToolResult, Error>> {
        Box::pin(async move {
            ORDERS.bump(cx);
            Ok(CallToolResult::text("ordered"))
        })
    }
}

/// `whoami`: no scope of its own; reports what the tool sees of the caller.
struct WhoAmI;

impl ToolHandler for WhoAmI {
    const NAME: &'static str = "whoami";
    fn definition() -> Tool {
        Tool::new("whoami", "Who is calling", Tool::no_arguments())
    }
    fn call<'a>(cx: &'a Cx, _: &'a JsonObject) -> BoxFuture<'a, Result<CallToolResult, Error>> {
        Box::pin(async move {
            let p = cx.principal().expect("a principal");
            let scopes: Vec<&str> = cx.scopes().map(Scope::as_str).collect();
            let tok = cx.access_token().expect("the verified token");
            Ok(CallToolResult::structured(json!({
                "subject": p.subject(),
                "issuer": p.issuer(),
                "client_id": p.client_id(),
                "verified": p.is_verified(),
                "scopes": scopes,
                "may_read_orders": cx.has_scope("orders:read"),
                "claim": tok.claims.get("tenant"),
                "bearer": cx.bearer_token().map(BearerToken::expose),
            })))
        })
    }
}

/// How often each subject's `checkout` asked its question: a kept answer is not asked again.
static ASKED: Counts = Counts::new();

fn asked_of(subject: &str) -> usize {
    ASKED.of(subject)
}

/// `checkout`: asks for a confirmation, and only after the answer decides that it needs
/// `orders:write` (`cx.require_scopes`), the case a declaration cannot express.
struct Checkout;

impl ToolHandler for Checkout {
    const NAME: &'static str = "checkout";
    fn definition() -> Tool {
        Tool::new(
            "checkout",
            "Confirms and places an order",
            Tool::no_arguments(),
        )
    }
    fn call<'a>(cx: &'a Cx, _: &'a JsonObject) -> BoxFuture<'a, Result<CallToolResult, Error>> {
        Box::pin(async move {
            let form = rondo_mcp::protocol::ElicitRequest::Form {
                message: "Place the order?".into(),
                requested_schema: serde_json::from_value(json!({"type": "object",
                    "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}))
                .unwrap(),
            };
            let answer = match cx.elicit("confirm", form).await {
                Ok(a) => a,
                Err(why) => return Ok(CallToolResult::text(format!("Cannot ask: {why}"))),
            };
            ASKED.bump(cx);
            let ok = answer.content.as_ref().and_then(|c| c.get("ok")) == Some(&json!(true));
            if !ok {
                return Ok(CallToolResult::text("not ordered"));
            }
            cx.require_scopes(["orders:write"])?;
            Ok(CallToolResult::text("checked out"))
        })
    }
}

/// `audit`: needs `orders:read` by a decision in its body, before it sends anything.
struct Audit;

impl ToolHandler for Audit {
    const NAME: &'static str = "audit";
    fn definition() -> Tool {
        Tool::new("audit", "Shows the order log", Tool::no_arguments())
    }
    fn call<'a>(cx: &'a Cx, _: &'a JsonObject) -> BoxFuture<'a, Result<CallToolResult, Error>> {
        Box::pin(async move {
            cx.require_scopes(["orders:read"])?;
            Ok(CallToolResult::text("the log"))
        })
    }
}

/// A verifier that knows a fixed table of tokens (or is down: every verify is `Unavailable`).
struct Table {
    tokens: HashMap<&'static str, AccessToken>,
    down: bool,
}

impl TokenVerifier for Table {
    fn verify<'a>(&'a self, t: &'a BearerToken) -> BoxFuture<'a, Result<AccessToken, AuthError>> {
        Box::pin(async move {
            if self.down {
                return Err(AuthError::Unavailable(
                    "the key server is unreachable".into(),
                ));
            }
            // Every test token is `t0k.<name>`, so a description that echoes one shows.
            self.tokens
                .get(t.expose().strip_prefix("t0k.").unwrap_or("?"))
                .cloned()
                .ok_or_else(|| AuthError::Invalid("The access token is not valid".into()))
        })
    }
}

fn scopes(names: &[&'static str]) -> Vec<Scope> {
    names.iter().map(|n| Scope::from_static(n)).collect()
}

fn token(sub: &str, granted: &[&'static str]) -> AccessToken {
    let exp = SystemTime::now() + Duration::from_secs(3600);
    AccessToken::new(ISSUER, sub, exp, Audience::Values(vec![URL.into()]))
        .with_client_id("app")
        .with_scopes(scopes(granted))
}

/// The tokens every test may present, by name.
fn table() -> HashMap<&'static str, AccessToken> {
    let past = SystemTime::now() - Duration::from_secs(600);
    let mut claims = serde_json::Map::new();
    claims.insert("tenant".into(), json!("north"));
    HashMap::from([
        ("alice-read", token("alice", &["books:read"])),
        (
            "alice-write",
            token("alice", &["books:read", "orders:write"]),
        ),
        ("hank-admin", token("hank", &["books:read", "orders:admin"])),
        ("bob-write", token("bob", &["books:read", "orders:write"])),
        (
            "carol-read",
            token("carol", &["books:read"]).with_claims(claims),
        ),
        ("dave-read", token("dave", &["books:read"])),
        ("dave-write", token("dave", &["books:read", "orders:write"])),
        ("erin-read", token("erin", &["books:read"])),
        ("erin-write", token("erin", &["books:read", "orders:write"])),
        ("no-books", token("frank", &["orders:write"])),
        ("ivan-read", token("ivan", &["books:read"])),
        ("ivan-write", token("ivan", &["books:read", "orders:write"])),
        ("judy-write", token("judy", &["books:read", "orders:write"])),
        ("brief", {
            let mut t = token("kim", &["books:read"]);
            t.expires_at = SystemTime::now() + Duration::from_millis(1500);
            t
        }),
        (
            "expired",
            AccessToken::new(ISSUER, "alice", past, Audience::Values(vec![URL.into()]))
                .with_scopes(scopes(&["books:read", "orders:write"])),
        ),
        (
            "other-audience",
            AccessToken::new(
                ISSUER,
                "alice",
                SystemTime::now() + Duration::from_secs(3600),
                Audience::Values(vec!["https://other.example/mcp".into()]),
            )
            .with_scopes(scopes(&["books:read", "orders:write"])),
        ),
        (
            "no-audience",
            AccessToken::new(
                ISSUER,
                "alice",
                SystemTime::now() + Duration::from_secs(3600),
                Audience::Values(vec![]),
            )
            .with_scopes(scopes(&["books:read", "orders:write"])),
        ),
        (
            // The audience as a client may write it: uppercase scheme and host, a trailing slash.
            "loud-audience",
            AccessToken::new(
                ISSUER,
                "gina",
                SystemTime::now() + Duration::from_secs(3600),
                Audience::Values(vec!["HTTP://LOCALHOST/mcp/".into()]),
            )
            .with_scopes(scopes(&["books:read"])),
        ),
    ])
}

fn resource_server(down: bool, expose: bool) -> ResourceServer {
    builder(down)
        .expose_bearer_token(expose)
        .build()
        .expect("a valid resource server")
}

fn builder(down: bool) -> rondo_mcp::auth::ResourceServerBuilder {
    ResourceServer::builder(URL)
        .authorization_server(ISSUER)
        .verifier(Table {
            tokens: table(),
            down,
        })
        .required_scopes(["books:read"])
        .implies("orders:admin", ["orders:write", "orders:read"])
        .resource_name("Bookshop")
}

fn service(down: bool, expose: bool) -> McpService<Router> {
    let router = Router::new(ServerInfo::new("bookshop", "1.0.0")).tools(
        rondo_mcp::ToolSet::new()
            .with::<Order>()
            .with::<WhoAmI>()
            .with::<Checkout>()
            .with::<Audit>(),
    );
    Server::new(router).into_http(HttpConfig::default().protect(resource_server(down, expose)))
}

async fn protected() -> Running {
    start_service(service(false, false)).await
}

fn call(id: i64, tool: &str) -> Value {
    modern(id, "tools/call", json!({"name": tool, "arguments": {}}))
}

/// POSTs a modern `tools/call` of `tool` with `Authorization: <auth>` (none for `None`).
async fn call_as(addr: SocketAddr, tool: &str, auth: Option<&str>) -> Reply {
    post_modern(addr, &call(1, tool), |h| {
        if let Some(a) = auth {
            h.push(("authorization".into(), a.into()));
        }
    })
    .await
}

fn bearer(name: &str) -> String {
    format!("Bearer t0k.{name}")
}

fn header<'a>(r: &'a Reply, name: &str) -> &'a str {
    r.headers
        .get(name)
        .unwrap_or_else(|| panic!("no {name} header"))
        .to_str()
        .expect("visible ASCII")
}

/// The auth-params of a `WWW-Authenticate: Bearer ...` value, in order.
fn params(challenge: &str) -> Vec<(String, String)> {
    let rest = challenge
        .strip_prefix("Bearer ")
        .expect("the Bearer scheme");
    rest.split("\", ")
        .map(|p| {
            let (k, v) = p.split_once("=\"").expect("key=\"value\"");
            (k.to_owned(), v.trim_end_matches('"').to_owned())
        })
        .collect()
}

fn param<'a>(ps: &'a [(String, String)], key: &str) -> Option<&'a str> {
    ps.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

const METADATA_URL: &str = "http://localhost/.well-known/oauth-protected-resource/mcp";

/// A challenge's status, parameters and OAuth error body, with `Cache-Control: no-store`.
async fn challenge(r: Reply, status: StatusCode) -> (Vec<(String, String)>, Value) {
    assert_eq!(r.status, status);
    assert_eq!(header(&r, "cache-control"), "no-store");
    let ps = params(header(&r, "www-authenticate"));
    assert_eq!(
        param(&ps, "resource_metadata"),
        Some(METADATA_URL),
        "{ps:?}"
    );
    let body = r.json().await;
    (ps, body)
}

async fn metadata(addr: SocketAddr, method: Method, path: &str, origin: Option<&str>) -> Reply {
    let mut b = http::Request::builder().method(method).uri(path);
    if let Some(o) = origin {
        b = b.header("origin", o);
    }
    let req = b
        .body(http_body_util::Full::new(bytes::Bytes::new()))
        .unwrap();
    Checks::new(Revision::V2026_07_28).send(addr, req).await
}

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
async fn too_few_scopes_get_403_naming_every_scope_needed() {
    let s = protected().await;
    // The endpoint's own minimum: a token without `books:read` is refused for every request.
    let (ps, _) = challenge(
        call_as(s.addr, "whoami", Some(&bearer("no-books"))).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(param(&ps, "error"), Some("insufficient_scope"));
    assert_eq!(param(&ps, "scope"), Some("books:read orders:write"));
    // The tool's declared scope: required first, then what the token already has, at once.
    let (ps, body) = challenge(
        call_as(s.addr, "order", Some(&bearer("dave-read"))).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(param(&ps, "error"), Some("insufficient_scope"));
    assert_eq!(param(&ps, "scope"), Some("orders:write books:read"));
    assert!(
        param(&ps, "error_description")
            .unwrap()
            .contains("orders:write")
    );
    assert_eq!(body["error"], "insufficient_scope");
    assert_eq!(body["scope"], "orders:write books:read");
    assert_eq!(orders_of("dave"), 0);
    // After the step-up the same call runs.
    let r = call_as(s.addr, "order", Some(&bearer("dave-write"))).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(text(&r.json().await), "ordered");
    assert_eq!(orders_of("dave"), 1);
    s.stop().await;
}

#[tokio::test]
async fn a_broader_scope_implies_the_narrower_ones() {
    let s = protected().await;
    let r = call_as(s.addr, "order", Some(&bearer("hank-admin"))).await;
    assert_eq!(r.status, StatusCode::OK);
    let r = call_as(s.addr, "whoami", Some(&bearer("hank-admin"))).await;
    let msg = r.json().await;
    let seen = &msg["result"]["structuredContent"];
    // `cx.scopes()` lists what the token says; `cx.has_scope` honours the hierarchy.
    assert_eq!(seen["scopes"], json!(["books:read", "orders:admin"]));
    assert_eq!(seen["may_read_orders"], true);
    s.stop().await;
}

#[tokio::test]
async fn tools_see_the_verified_identity_and_never_the_token_unless_exposed() {
    let s = protected().await;
    let r = call_as(s.addr, "whoami", Some(&bearer("carol-read"))).await;
    let msg = r.json().await;
    let seen = &msg["result"]["structuredContent"];
    assert_eq!(seen["subject"], "carol");
    assert_eq!(seen["issuer"], ISSUER);
    assert_eq!(seen["client_id"], "app");
    assert_eq!(seen["verified"], true);
    assert_eq!(seen["may_read_orders"], false);
    assert_eq!(seen["claim"], "north");
    assert_eq!(
        seen["bearer"],
        Value::Null,
        "the raw token is off by default"
    );
    s.stop().await;
    let exposed = start_service(service(false, true)).await;
    let r = call_as(exposed.addr, "whoami", Some(&bearer("carol-read"))).await;
    let msg = r.json().await;
    assert_eq!(
        msg["result"]["structuredContent"]["bearer"],
        "t0k.carol-read"
    );
    exposed.stop().await;
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
async fn require_scopes_in_a_body_is_the_same_step_up_at_both_revisions() {
    let s = protected().await;
    let (ps, _) = challenge(
        call_as(s.addr, "audit", Some(&bearer("alice-read"))).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(param(&ps, "scope"), Some("orders:read books:read"));
    // `orders:admin` implies `orders:read`.
    let r = call_as(s.addr, "audit", Some(&bearer("hank-admin"))).await;
    assert_eq!(text(&r.json().await), "the log");

    let session = Session::open_as(s.addr, Some(&bearer("alice-read"))).await;
    let audit = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "audit", "arguments": {}}});
    let (ps, _) = challenge(session.post(&audit).await, StatusCode::FORBIDDEN).await;
    assert_eq!(param(&ps, "scope"), Some("orders:read books:read"));
    s.stop().await;
}

#[tokio::test]
async fn without_a_resource_server_require_scopes_is_not_in_force() {
    let router = Router::new(ServerInfo::new("open", "1.0.0"))
        .tools(rondo_mcp::ToolSet::new().with::<Audit>().with::<Order>());
    let s = start(Server::new(router), HttpConfig::default()).await;
    let r = call_as(s.addr, "audit", None).await;
    assert_eq!(text(&r.json().await), "the log");
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

#[tokio::test]
async fn lists_can_show_each_caller_only_what_it_may_call() {
    let names = |msg: &Value| -> Vec<String> {
        msg["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("{msg}"))
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let list = modern(3, "tools/list", json!({}));
    let list_as = |addr, tok: &'static str| {
        let list = list.clone();
        async move {
            post_modern(addr, &list, |h| {
                h.push(("authorization".into(), bearer(tok)));
            })
            .await
            .json()
            .await
        }
    };
    // By default every caller sees every tool, and the list is the same for all.
    let open = protected().await;
    let all = list_as(open.addr, "alice-read").await;
    assert!(names(&all).contains(&"order".to_owned()), "{all}");
    assert_eq!(all["result"]["cacheScope"], "public", "{all}");
    open.stop().await;

    let rs = builder(false).filter_lists(true).build().unwrap();
    let router = Router::new(ServerInfo::new("bookshop", "1.0.0"))
        .tools(rondo_mcp::ToolSet::new().with::<Order>().with::<WhoAmI>());
    let s = start(Server::new(router), HttpConfig::default().protect(rs)).await;
    let reader = list_as(s.addr, "alice-read").await;
    assert_eq!(names(&reader), ["whoami"]);
    assert_eq!(reader["result"]["cacheScope"], "private", "{reader}");
    let writer = list_as(s.addr, "dave-write").await;
    assert_eq!(names(&writer), ["order", "whoami"]);
    // Through the hierarchy too.
    let admin = list_as(s.addr, "hank-admin").await;
    assert_eq!(names(&admin), ["order", "whoami"]);
    s.stop().await;
}

/// A prompt that needs `prompts:use`.
#[rondo_mcp::prompt(scopes = ["prompts:use"])]
async fn welcome() -> String {
    "Welcome".into()
}

/// A template whose every URI needs `books:detail`.
#[rondo_mcp::resource("books://item/{isbn}", scopes = ["books:detail"])]
async fn book_item(isbn: String) -> ResourceContents {
    ResourceContents::text(format!("books://item/{isbn}"), "text/plain", "a book")
}

/// A resource open to every token.
#[rondo_mcp::resource("books://about")]
async fn about_shop() -> ResourceContents {
    ResourceContents::text("books://about", "text/plain", "about")
}

#[tokio::test]
async fn prompts_and_resources_declare_scopes_too() {
    let rs = builder(false).filter_lists(true).build().unwrap();
    let router = Router::new(ServerInfo::new("bookshop", "1.0.0"))
        .prompts(rondo_mcp::prompts![welcome])
        .resources(rondo_mcp::resources![book_item, about_shop]);
    let s = start(Server::new(router), HttpConfig::default().protect(rs)).await;
    let as_ = |tok: &'static str| {
        move |h: &mut Vec<(String, String)>| h.push(("authorization".into(), bearer(tok)))
    };
    let get = modern(1, "prompts/get", json!({"name": "welcome"}));
    let (ps, _) = challenge(
        post_modern(s.addr, &get, as_("alice-read")).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(param(&ps, "scope"), Some("prompts:use books:read"));
    let read = modern(2, "resources/read", json!({"uri": "books://item/42"}));
    let (ps, _) = challenge(
        post_modern(s.addr, &read, as_("alice-read")).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(param(&ps, "scope"), Some("books:detail books:read"));
    let open = modern(3, "resources/read", json!({"uri": "books://about"}));
    let r = post_modern(s.addr, &open, as_("alice-read"))
        .await
        .json()
        .await;
    assert_eq!(r["result"]["contents"][0]["text"], "about", "{r}");
    // The filtered lists leave out what the token may not use.
    let prompts = modern(4, "prompts/list", json!({}));
    let r = post_modern(s.addr, &prompts, as_("alice-read"))
        .await
        .json()
        .await;
    assert_eq!(r["result"]["prompts"], json!([]), "{r}");
    let templates = modern(5, "resources/templates/list", json!({}));
    let r = post_modern(s.addr, &templates, as_("alice-read"))
        .await
        .json()
        .await;
    assert_eq!(r["result"]["resourceTemplates"], json!([]), "{r}");
    let resources = modern(6, "resources/list", json!({}));
    let r = post_modern(s.addr, &resources, as_("alice-read"))
        .await
        .json()
        .await;
    assert_eq!(r["result"]["resources"][0]["uri"], "books://about", "{r}");
    s.stop().await;
}
