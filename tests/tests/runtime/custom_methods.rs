//! Custom methods and extensions (`Server::method`, `Server::extension`): a method of the
//! server's own namespace served with typed params and result at 2025-11-25 and 2026-07-28,
//! params that do not parse refused `-32602` naming the field, core names refused when the
//! server is built, an extension's capability entry in `initialize` and `server/discover`,
//! one that requires the client to declare it, one of 2026-07-28 only, the middleware around
//! them, and a panicking method costing its request only. Every message is checked against the
//! official schema of its revision.

use super::middleware::{Log, deny, record};
use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{ClientCapabilities, Revision, code};
use rondo_mcp::testing::TestClient;
use rondo_mcp::{CustomMethod, Extension, ExtensionError};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Deserialize)]
struct Reindex {
    shard: u32,
    #[serde(default)]
    options: Options,
}

#[derive(Deserialize, Default)]
struct Options {
    #[serde(default)]
    limit: Option<u32>,
}

#[derive(Serialize)]
struct Reindexed {
    documents: u64,
    revision: String,
}

fn reindex() -> CustomMethod {
    CustomMethod::new("acme/reindex", |cx: &Cx, p: Reindex| {
        Box::pin(async move {
            let limit = p.options.limit.unwrap_or(1_000);
            Ok(Reindexed {
                documents: u64::from(p.shard) * u64::from(limit),
                revision: cx.revision().as_str().to_owned(),
            })
        })
    })
}

#[derive(Deserialize)]
struct Say {
    text: String,
}

fn echo() -> Extension {
    let mut settings = serde_json::Map::new();
    settings.insert("loud".into(), true.into());
    Extension::new("com.acme/echo")
        .settings(settings)
        .method(CustomMethod::new("acme.echo/say", |_cx: &Cx, p: Say| {
            Box::pin(async move { Ok(json!({ "said": p.text.to_uppercase() })) })
        }))
}

/// An extension only clients that declare it are served, on 2026-07-28 only.
fn vault() -> Extension {
    Extension::new("com.acme/vault")
        .client_must_declare()
        .modern_only()
        .method(CustomMethod::new(
            "acme.vault/open",
            |_cx: &Cx, _p: Value| Box::pin(async move { Ok(json!({ "open": true })) }),
        ))
}

fn panics() -> CustomMethod {
    CustomMethod::new(
        "acme/boom",
        |_cx: &Cx, _p: Value| -> rondo_mcp::BoxFuture<'_, Result<Value, Error>> {
            Box::pin(async move { panic!("the custom method broke") })
        },
    )
}

fn server() -> Server<Router> {
    Server::new(Router::new(ServerInfo::new("custom", "1.0.0")))
        .method(reindex())
        .method(panics())
        .extension(echo())
        .extension(vault())
}

/// The official schemas list the core requests only, so a custom request is no
/// `ClientRequest`; everything else (the answers, `initialize`, `server/discover`) is checked.
const CUSTOM: &str = "a custom method is not a request of the official schema";

async fn client(revision: Revision, server: Server<Router>) -> TestClient {
    TestClient::builder(server, revision)
        .skip_validation_of("ClientRequest", CUSTOM)
        .connect()
        .await
        .unwrap()
}

const BOTH: [Revision; 2] = [Revision::V2025_11_25, Revision::V2026_07_28];

#[tokio::test]
async fn a_custom_method_is_served_with_typed_params_and_result_at_both_revisions() {
    for revision in BOTH {
        let c = client(revision, server()).await;
        let r = c
            .request(
                "acme/reindex",
                json!({"shard": 3, "options": {"limit": 10}}),
            )
            .await
            .unwrap();
        assert_eq!(r["documents"], 30, "{revision:?}: {r}");
        assert_eq!(r["revision"], revision.as_str());
        if revision.is_modern() {
            // The envelope every 2026-07-28 result carries; no cache hints (not cacheable).
            assert_eq!(r["resultType"], "complete", "{r}");
            assert_eq!(
                r["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
                "custom"
            );
            assert!(r.get("ttlMs").is_none(), "{r}");
        } else {
            assert!(r.get("resultType").is_none(), "{r}");
        }
        let said = c
            .request("acme.echo/say", json!({"text": "hi"}))
            .await
            .unwrap();
        assert_eq!(said["said"], "HI");
        c.assert_valid();
    }
}

#[tokio::test]
async fn params_that_do_not_parse_are_refused_naming_the_field() {
    for revision in BOTH {
        let c = client(revision, server()).await;
        for (params, field) in [
            (json!({}), "missing field `shard`"),
            (
                json!({"shard": "three"}),
                "`shard`: invalid type: string \"three\"",
            ),
            (
                json!({"shard": 1, "options": {"limit": -1}}),
                "`options.limit`: invalid value: integer `-1`",
            ),
        ] {
            let e = c.request("acme/reindex", params).await.unwrap_err();
            assert_eq!(e.code, code::INVALID_PARAMS, "{revision:?}: {e:?}");
            assert!(e.message.contains(field), "{revision:?}: {}", e.message);
        }
        // The server carries on.
        let r = c
            .request("acme/reindex", json!({"shard": 1}))
            .await
            .unwrap();
        assert_eq!(r["documents"], 1_000);
        c.assert_valid();
    }
}

#[tokio::test]
async fn unknown_custom_methods_are_method_not_found() {
    for revision in BOTH {
        let c = client(revision, server()).await;
        let e = c.request("acme/unknown", json!({})).await.unwrap_err();
        assert_eq!(e.code, code::METHOD_NOT_FOUND, "{revision:?}");
        c.assert_valid();
    }
}

#[tokio::test]
async fn core_names_are_refused_when_the_server_is_built() {
    let bare = || Server::new(Router::new(ServerInfo::new("custom", "1.0.0")));
    let method = |name: &str| {
        CustomMethod::new(name, |_cx: &Cx, _p: Value| {
            Box::pin(async move { Ok(json!({})) })
        })
    };
    let refused = |name: &str| bare().try_method(method(name)).unwrap_err();
    assert!(matches!(refused("tools/call"), ExtensionError::Core { .. }));
    assert!(matches!(refused("initialize"), ExtensionError::Core { .. }));
    assert!(matches!(
        refused("tools/search"),
        ExtensionError::Reserved { .. }
    ));
    assert!(matches!(
        refused("notifications/acme"),
        ExtensionError::Reserved { .. }
    ));
    assert!(matches!(
        refused("reindex"),
        ExtensionError::NoNamespace { .. }
    ));
    assert!(matches!(
        refused("tasks/get"),
        ExtensionError::ExtensionMethod { .. }
    ));
    let twice = bare().method(method("acme/a")).try_method(method("acme/a"));
    assert!(matches!(twice.unwrap_err(), ExtensionError::Taken { .. }));
    // An extension is refused whole: a bad id, a core name among its methods, an id twice.
    let bad_id = bare().try_extension(Extension::new("echo")).unwrap_err();
    assert!(matches!(bad_id, ExtensionError::BadId { .. }));
    let core = Extension::new("com.acme/x")
        .method(method("acme/ok"))
        .method(method("ping"));
    let (e, server) = match bare().try_extension(core) {
        Err(e) => (e, bare()),
        Ok(_) => panic!("ping accepted"),
    };
    assert!(matches!(e, ExtensionError::Core { .. }));
    assert!(server.info().capabilities.extensions.is_none());
    let again = bare().extension(echo()).try_extension(echo()).unwrap_err();
    assert_eq!(
        again,
        ExtensionError::Taken {
            name: "com.acme/echo".into()
        }
    );
    // Rondo's own extension ids are taken once a server serves them.
    let tasks = Server::new(Router::new(ServerInfo::new("t", "1").with_tasks()))
        .try_extension(Extension::new(rondo_mcp::protocol::TASKS_EXTENSION))
        .unwrap_err();
    assert!(matches!(tasks, ExtensionError::Taken { .. }));
}

#[test]
#[should_panic(
    expected = "`tools/call` is a core method of MCP: a custom method needs a name of its own"
)]
fn server_method_panics_with_the_rule_and_the_fix() {
    let _ = Server::new(Router::new(ServerInfo::new("custom", "1.0.0")))
        .method(CustomMethod::new("tools/call", |_cx: &Cx, _p: Value| {
            Box::pin(async move { Ok(json!({})) })
        }));
}

#[tokio::test]
async fn an_extension_is_declared_in_initialize_and_server_discover() {
    let legacy = client(Revision::V2025_11_25, server()).await;
    let declared = &legacy.initialize_result().unwrap()["capabilities"]["extensions"];
    // The 2026-07-28-only extension is not declared to a session.
    assert_eq!(declared, &json!({"com.acme/echo": {"loud": true}}));
    legacy.assert_valid();

    let modern = client(Revision::V2026_07_28, server()).await;
    let found = modern.request("server/discover", json!({})).await.unwrap();
    assert_eq!(
        found["capabilities"]["extensions"],
        json!({"com.acme/echo": {"loud": true}, "com.acme/vault": {}})
    );
    modern.assert_valid();
}

#[tokio::test]
async fn an_extension_the_client_must_declare_and_one_of_2026_only() {
    // A session is not served the 2026-07-28-only extension's methods.
    let legacy = client(Revision::V2025_11_25, server()).await;
    let e = legacy
        .request("acme.vault/open", json!({}))
        .await
        .unwrap_err();
    assert_eq!(e.code, code::METHOD_NOT_FOUND);
    legacy.assert_valid();

    // A 2026-07-28 client that did not declare it: -32021 naming it, before the params.
    let modern = client(Revision::V2026_07_28, server()).await;
    let e = modern
        .request("acme.vault/open", json!({}))
        .await
        .unwrap_err();
    assert_eq!(e.code, code::MISSING_REQUIRED_CLIENT_CAPABILITY);
    let data = e.data.unwrap();
    assert_eq!(
        data["requiredCapabilities"],
        json!({"extensions": {"com.acme/vault": {}}})
    );
    modern.assert_valid();

    let caps = ClientCapabilities::with_extension("com.acme/vault");
    let declared = TestClient::modern(server())
        .capabilities(caps)
        .skip_validation_of("ClientRequest", CUSTOM)
        .connect()
        .await
        .unwrap();
    let r = declared
        .request("acme.vault/open", json!({}))
        .await
        .unwrap();
    assert_eq!(r["open"], true);
    declared.assert_valid();
}

#[tokio::test]
async fn custom_methods_pass_through_the_middleware() {
    for revision in BOTH {
        let log = Log::default();
        let layered = server()
            .layer(record("outer", &log))
            .layer(deny("acme.echo/say"));
        let c = client(revision, layered).await;
        c.request("acme/reindex", json!({"shard": 1}))
            .await
            .unwrap();
        let e = c
            .request("acme.echo/say", json!({"text": "x"}))
            .await
            .unwrap_err();
        assert_eq!(e.message, "`acme.echo/say` is turned off here");
        let seen: Vec<String> = log
            .lock()
            .unwrap()
            .iter()
            .map(|s| s.method.clone())
            .collect();
        // Before and after the custom method; the refused one never reached the inner layer.
        assert_eq!(
            seen.iter().filter(|m| *m == "acme/reindex").count(),
            2,
            "{revision:?}: {seen:?}"
        );
        assert!(!seen.iter().any(|m| m == "acme.echo/say"), "{seen:?}");
        c.assert_valid();
    }
}

#[tokio::test]
async fn a_panicking_custom_method_costs_its_request_only() {
    for revision in BOTH {
        let c = client(revision, server()).await;
        let e = c.request("acme/boom", json!({})).await.unwrap_err();
        assert_eq!(e.code, code::INTERNAL_ERROR, "{revision:?}");
        let r = c
            .request("acme/reindex", json!({"shard": 2}))
            .await
            .unwrap();
        assert_eq!(r["documents"], 2_000);
        c.assert_valid();
    }
}
