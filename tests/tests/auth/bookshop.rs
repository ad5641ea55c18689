//! The protected bookshop the `auth` tests over Streamable HTTP serve: its tools (`order`,
//! `whoami`, `checkout`, `audit`), a table verifier with every token the tests present
//! (`t0k.<name>`), the resource server around it, and what reads a challenge. Tokens come from
//! the table (the JWT verifiers have their own tests, `jwt.rs`); what is under test is what the
//! resource server and the HTTP service do with them.

use crate::support::http::*;
use http::{Method, StatusCode};
use rondo_mcp::auth::{AuthError, ResourceServer, TokenVerifier};
use rondo_mcp::http::{HttpConfig, McpService};
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{JsonObject, Revision};
use rondo_mcp::{AccessToken, Audience, BearerToken, BoxFuture, Scope, ToolHandler};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

pub(super) const URL: &str = "http://localhost/mcp";
pub(super) const ISSUER: &str = "https://id.example";
pub(super) const PRM: &str = "/.well-known/oauth-protected-resource/mcp";
pub(super) const PRM_ROOT: &str = "/.well-known/oauth-protected-resource";

/// A count per subject, shared by the tests of these files (each uses its own subjects).
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

pub(super) fn orders_of(subject: &str) -> usize {
    ORDERS.of(subject)
}

/// `order`: needs `orders:write`; counts its runs per subject.
pub(super) struct Order;

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
pub(super) struct WhoAmI;

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

pub(super) fn asked_of(subject: &str) -> usize {
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
pub(super) struct Audit;

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

pub(super) fn builder(down: bool) -> rondo_mcp::auth::ResourceServerBuilder {
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

pub(super) fn service(down: bool, expose: bool) -> McpService<Router> {
    let router = Router::new(ServerInfo::new("bookshop", "1.0.0")).tools(
        rondo_mcp::ToolSet::new()
            .with::<Order>()
            .with::<WhoAmI>()
            .with::<Checkout>()
            .with::<Audit>(),
    );
    Server::new(router).into_http(HttpConfig::default().protect(resource_server(down, expose)))
}

pub(super) async fn protected() -> Running {
    start_service(service(false, false)).await
}

pub(super) fn call(id: i64, tool: &str) -> Value {
    modern(id, "tools/call", json!({"name": tool, "arguments": {}}))
}

/// POSTs a modern `tools/call` of `tool` with `Authorization: <auth>` (none for `None`).
pub(super) async fn call_as(addr: SocketAddr, tool: &str, auth: Option<&str>) -> Reply {
    post_modern(addr, &call(1, tool), |h| {
        if let Some(a) = auth {
            h.push(("authorization".into(), a.into()));
        }
    })
    .await
}

pub(super) fn bearer(name: &str) -> String {
    format!("Bearer t0k.{name}")
}

pub(super) fn header<'a>(r: &'a Reply, name: &str) -> &'a str {
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

pub(super) fn param<'a>(ps: &'a [(String, String)], key: &str) -> Option<&'a str> {
    ps.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

const METADATA_URL: &str = "http://localhost/.well-known/oauth-protected-resource/mcp";

/// A challenge's status, parameters and OAuth error body, with `Cache-Control: no-store`.
pub(super) async fn challenge(r: Reply, status: StatusCode) -> (Vec<(String, String)>, Value) {
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

pub(super) async fn metadata(
    addr: SocketAddr,
    method: Method,
    path: &str,
    origin: Option<&str>,
) -> Reply {
    let mut b = http::Request::builder().method(method).uri(path);
    if let Some(o) = origin {
        b = b.header("origin", o);
    }
    let req = b
        .body(http_body_util::Full::new(bytes::Bytes::new()))
        .unwrap();
    Checks::new(Revision::V2026_07_28).send(addr, req).await
}
