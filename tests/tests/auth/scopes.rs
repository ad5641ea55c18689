//! Scopes: per-tool scopes at both revisions (declared, or required in a body), the scope
//! hierarchy, identity inside tools, lists filtered per caller, and prompts and resources
//! declaring scopes too.

use super::bookshop::*;
use crate::support::http::*;
use http::StatusCode;
use rondo_mcp::http::HttpConfig;
use rondo_mcp::prelude::*;
use serde_json::{Value, json};

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
