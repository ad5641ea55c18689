//! A router's [`Registry`]: tools, prompts and resources added and removed while the server
//! serves, at every revision (over the newline transport), each change announced to the
//! sessions of the handshake revisions and to a 2026-07-28 listen stream, a refused change
//! refused whole, a call of a removed tool answering the unknown-tool error while a call
//! already running finishes, and the cursors of a list across a change. Every message is checked
//! against the official schema of its revision.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Revision, code};
use rondo_mcp::testing::TestClient;
use rondo_mcp::{Edit, ItemKind, Registry, RegistryError};
use rondo_mcp::{prompt, prompts, resource, resources, tool, tools};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// The first tool.
#[tool]
async fn alpha() -> &'static str {
    "alpha"
}
/// The second tool.
#[tool]
async fn beta() -> &'static str {
    "beta"
}
/// The third tool.
#[tool]
async fn gamma() -> &'static str {
    "gamma"
}
/// May run as a task.
#[tool(task = optional)]
async fn slow() -> &'static str {
    "slow"
}

/// A prompt added later.
#[prompt]
async fn welcome() -> String {
    "Welcome.".into()
}

/// A resource added later.
#[resource("test://notes", mime_type = "text/plain")]
async fn notes() -> ResourceContents {
    ResourceContents::text("test://notes", "text/plain", "a note")
}
/// A template added later.
#[resource("test://days/{day}", mime_type = "text/plain")]
async fn day(day: String) -> ResourceContents {
    ResourceContents::text(format!("test://days/{day}"), "text/plain", day)
}

/// A server of `alpha` whose registry the test holds.
fn served() -> (Server<Router>, Registry) {
    let mut router = Router::new(ServerInfo::new("registry", "1.0.0")).tools(tools![alpha]);
    let registry = router.registry();
    (Server::new(router), registry)
}

const HANDSHAKES: [Revision; 4] = [
    Revision::V2024_11_05,
    Revision::V2025_03_26,
    Revision::V2025_06_18,
    Revision::V2025_11_25,
];

/// The notifications of `method` the client received so far.
fn heard(client: &TestClient, method: &str) -> usize {
    client
        .transcript()
        .iter()
        .filter(|f| f.message["method"] == method && f.message.get("id").is_none())
        .count()
}

/// Waits until the client received `n` notifications of `method`.
async fn until_heard(client: &TestClient, method: &str, n: usize) {
    let start = Instant::now();
    while heard(client, method) < n {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "never heard {method} #{n}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

async fn tool_names(client: &TestClient) -> Vec<String> {
    let tools = client.list_tools().await.expect("tools/list");
    tools.into_iter().map(|t| t.name).collect()
}

/// Opens a 2026-07-28 listen stream for every list change; returns when it is acknowledged.
async fn listen(client: &TestClient) {
    let listen = json!({"jsonrpc": "2.0", "id": "changes", "method": "subscriptions/listen",
        "params": {"_meta": client.request_meta(), "notifications":
            {"toolsListChanged": true, "promptsListChanged": true, "resourcesListChanged": true}}});
    client.raw_line(&listen.to_string()).await;
    until_heard(client, "notifications/subscriptions/acknowledged", 1).await;
}

/// Adds, lists, calls and removes a tool, a prompt, a resource and a template through the
/// registry, and checks each change was heard once.
async fn tools_come_and_go(rev: Revision) {
    let (server, registry) = served();
    let client = TestClient::builder(server, rev).connect().await.unwrap();
    if rev.is_modern() {
        listen(&client).await;
    } else {
        let caps = &client.initialize_result().expect("initialize")["capabilities"];
        for kind in ["tools", "prompts", "resources"] {
            assert_eq!(caps[kind]["listChanged"], true, "{rev:?} {kind}: {caps}");
        }
    }
    let tools_changed = "notifications/tools/list_changed";
    assert_eq!(tool_names(&client).await, ["alpha"]);

    registry.add_tools(tools![beta]).unwrap();
    until_heard(&client, tools_changed, 1).await;
    assert_eq!(tool_names(&client).await, ["alpha", "beta"]);
    assert_eq!(
        client.call_tool("beta", json!({})).await.unwrap().text(),
        "beta"
    );

    registry.remove_tool("alpha").unwrap();
    until_heard(&client, tools_changed, 2).await;
    assert_eq!(tool_names(&client).await, ["beta"]);
    let gone = client.call_tool("alpha", json!({})).await.unwrap_err();
    assert_eq!(
        (gone.code, gone.message.as_str()),
        (code::INVALID_PARAMS, "Unknown tool: alpha")
    );

    registry.add_prompts(prompts![welcome]).unwrap();
    until_heard(&client, "notifications/prompts/list_changed", 1).await;
    let got = client.get_prompt("welcome", json!({})).await.unwrap();
    assert_eq!(got.result["messages"][0]["content"]["text"], "Welcome.");
    registry.remove_prompt("welcome").unwrap();
    until_heard(&client, "notifications/prompts/list_changed", 2).await;
    let listed = client.request("prompts/list", json!({})).await.unwrap();
    assert_eq!(listed["prompts"], json!([]));

    let changed = "notifications/resources/list_changed";
    registry.add_resources(resources![notes, day]).unwrap();
    until_heard(&client, changed, 1).await;
    let read = client.read_resource("test://days/monday").await.unwrap();
    assert_eq!(read.result["contents"][0]["text"], "monday");
    registry.remove_resource("test://days/{day}").unwrap();
    until_heard(&client, changed, 2).await;
    let templates = client.request("resources/templates/list", json!({})).await;
    assert_eq!(templates.unwrap()["resourceTemplates"], json!([]));
    let listed = client.request("resources/list", json!({})).await.unwrap();
    assert_eq!(listed["resources"][0]["uri"], "test://notes");
    assert!(client.read_resource("test://days/monday").await.is_err());

    // Each change was announced once, and every message fits the revision's schema.
    assert_eq!(heard(&client, tools_changed), 2);
    client.assert_valid();
}

#[tokio::test]
async fn tools_come_and_go_at_every_revision() {
    for rev in HANDSHAKES.into_iter().chain([Revision::V2026_07_28]) {
        tools_come_and_go(rev).await;
    }
}

#[tokio::test]
async fn a_refused_change_changes_and_announces_nothing() {
    let (server, registry) = served();
    let client = TestClient::legacy(server).connect().await.unwrap();
    let taken = RegistryError::Taken {
        kind: ItemKind::Tool,
        key: "alpha".into(),
    };
    assert_eq!(registry.add_tools(tools![alpha]), Err(taken.clone()));
    // All or none: `gamma` is not added with the `alpha` the edit cannot add.
    let edit = Edit::new()
        .add_tools(tools![gamma])
        .add_tools(tools![alpha]);
    assert_eq!(registry.apply(edit), Err(taken));
    let unknown = registry.remove_tool("nothing").unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "no tool name `nothing` is served by this router"
    );
    assert!(matches!(
        registry.remove_resource("test://nothing"),
        Err(RegistryError::Unknown {
            kind: ItemKind::Resource,
            ..
        })
    ));
    // A task-capable tool needs the tasks extension, which a server cannot add once started.
    let refused = registry.add_tools(tools![slow]).unwrap_err();
    assert_eq!(
        refused,
        RegistryError::TasksNotAdvertised {
            tool: "slow".into()
        }
    );
    assert_eq!(registry.tool_names(), ["alpha"]);
    assert_eq!(tool_names(&client).await, ["alpha"]);
    // A change heard now is the first: none of the refused ones was announced.
    registry
        .apply(Edit::new().remove_tool("alpha").add_tools(tools![alpha]))
        .unwrap();
    until_heard(&client, "notifications/tools/list_changed", 1).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(
        heard(&client, "notifications/tools/list_changed"),
        1,
        "one edit, one notification"
    );
}

/// Says it started, then waits for its gate: the call that is running while its tool is
/// removed.
struct Gated {
    started: Mutex<Option<oneshot::Sender<()>>>,
    gate: Mutex<Option<oneshot::Receiver<()>>>,
}

#[rondo_mcp::toolbox]
impl Gated {
    /// Answers once the test opens the gate.
    #[tool]
    async fn waiting(&self) -> &'static str {
        let started = self.started.lock().unwrap().take();
        let gate = self.gate.lock().unwrap().take();
        if let (Some(started), Some(gate)) = (started, gate) {
            let _ = started.send(());
            let _ = gate.await;
        }
        "finished"
    }
}

#[tokio::test]
async fn a_call_running_when_its_tool_is_removed_finishes() {
    for rev in [Revision::V2025_11_25, Revision::V2026_07_28] {
        let (started, running_now) = oneshot::channel();
        let (open, gate) = oneshot::channel();
        let (server, registry) = served();
        let gated = Gated {
            started: Mutex::new(Some(started)),
            gate: Mutex::new(Some(gate)),
        };
        registry.add_tools(gated).unwrap();
        let client = Arc::new(TestClient::builder(server, rev).connect().await.unwrap());
        let running = {
            let client = client.clone();
            tokio::spawn(async move { client.call_tool("waiting", json!({})).await })
        };
        running_now.await.expect("the call started");
        registry.remove_tool("waiting").unwrap();
        let again = client.call_tool("waiting", json!({})).await.unwrap_err();
        assert_eq!(again.message, "Unknown tool: waiting", "{rev:?}");
        open.send(()).unwrap();
        let done = running.await.unwrap().unwrap();
        assert_eq!(done.text(), "finished", "{rev:?}");
    }
}

/// `tools/list` page by page: `(names, nextCursor)`.
async fn page(
    client: &TestClient,
    cursor: Option<&Value>,
) -> Result<(Vec<String>, Value), rondo_mcp::Error> {
    let params = cursor.map_or(json!({}), |c| json!({ "cursor": c }));
    let r = client.request("tools/list", params).await?;
    let names = r["tools"].as_array().unwrap().iter();
    let names = names
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    Ok((names, r.get("nextCursor").cloned().unwrap_or(Value::Null)))
}

/// A cursor survives an addition (and its pages join into the list as it is now); one issued
/// before a removal is refused with `-32602`, and the list read again from the start is whole.
#[tokio::test]
async fn cursors_survive_additions_and_end_at_a_removal() {
    for rev in [Revision::V2025_11_25, Revision::V2026_07_28] {
        let mut router = Router::new(ServerInfo::new("pages", "1.0.0"))
            .tools(tools![alpha, beta])
            .page_size(1);
        let registry = router.registry();
        let client = TestClient::builder(Server::new(router), rev)
            .connect()
            .await
            .unwrap();
        let (first, next) = page(&client, None).await.unwrap();
        assert_eq!(first, ["alpha"]);
        registry.add_tools(tools![gamma]).unwrap();
        let (second, last) = page(&client, Some(&next)).await.unwrap();
        let (third, end) = page(&client, Some(&last)).await.unwrap();
        assert_eq!([first, second, third].concat(), ["alpha", "beta", "gamma"]);
        assert_eq!(end, Value::Null);

        let (_, kept) = page(&client, None).await.unwrap();
        registry.remove_tool("gamma").unwrap();
        let stale = page(&client, Some(&kept)).await.unwrap_err();
        assert_eq!(stale.code, code::INVALID_PARAMS, "{rev:?}");
        assert!(
            stale.message.contains("list again from the start"),
            "{}",
            stale.message
        );
        assert_eq!(tool_names(&client).await, ["alpha", "beta"]);
        client.assert_valid();
    }
}

/// A router never given a registry advertises what its author chose, as before; one with a
/// registry advertises `listChanged` for every list by itself.
#[tokio::test]
async fn a_registry_advertises_list_changes_by_itself() {
    let fixed = Router::new(ServerInfo::new("fixed", "1.0.0")).tools(tools![alpha]);
    let client = TestClient::legacy(Server::new(fixed))
        .connect()
        .await
        .unwrap();
    let caps = &client.initialize_result().unwrap()["capabilities"];
    assert_eq!(caps["tools"], json!({}), "{caps}");
    assert!(
        caps.get("prompts").is_none() && caps.get("resources").is_none(),
        "{caps}"
    );
    let (server, _registry) = served();
    let caps = &server.info().capabilities;
    let on = |c: Option<bool>| c == Some(true);
    assert!(on(caps.tools.as_ref().and_then(|t| t.list_changed)));
    assert!(on(caps.prompts.as_ref().and_then(|p| p.list_changed)));
    assert!(on(caps.resources.as_ref().and_then(|r| r.list_changed)));
}
