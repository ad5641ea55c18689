//! Every handshake revision (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25) from the same tool
//! code: `initialize` negotiates the version the client asked for (the newest handshake one for
//! anything else), and each session is sent only what its revision defines. The test client
//! checks every line against its revision's official schema, closed for the three oldest (a
//! member the revision does not define fails), so each test here also proves the shapes.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Annotations, Content, Resource, ResourceContents, Revision, code};
use rondo_mcp::testing::{Direction, Reply, Script, TestClient};
use rondo_mcp::{Answer, Elicit, Form, Json, elicit, prompt, resource, sample, tool, tools};
use serde_json::{Value, json};

const HANDSHAKE: [Revision; 4] = [
    Revision::V2024_11_05,
    Revision::V2025_03_26,
    Revision::V2025_06_18,
    Revision::V2025_11_25,
];

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Weather {
    celsius: f32,
}

/// Today's weather, structured.
#[tool(title = "Weather", read_only_hint = true)]
async fn weather() -> Json<Weather> {
    Json(Weather { celsius: 21.5 })
}

/// A clip, a link and an embedded file.
#[tool]
async fn media() -> CallToolResult {
    let mut link = Resource::new("file:///notes.txt", "notes");
    link.title = Some("Notes".into());
    link.mime_type = Some("text/plain".into());
    let mut embedded = ResourceContents::text("file:///a.txt", "text/plain", "a");
    embedded.meta = Some(json!({"k": 1}).as_object().cloned().unwrap_or_default());
    CallToolResult::success(vec![
        Content::audio("UklGRg==", "audio/wav"),
        Content::resource_link(link),
        Content::Resource {
            resource: embedded,
            annotations: Some(Annotations {
                last_modified: Some("2025-01-01T00:00:00Z".into()),
                priority: Some(0.5),
                ..Default::default()
            }),
        },
    ])
}

/// Counts to three, saying so.
#[tool]
async fn count(cx: &Cx) -> String {
    for i in 1..=3 {
        cx.progress(f64::from(i), Some(3.0), Some("counting")).await;
    }
    "three".into()
}

#[derive(Elicit)]
enum Seat {
    /// By the window
    Window,
    /// On the aisle
    Aisle,
}

#[derive(Elicit)]
struct SeatForm {
    seat: Seat,
    /// The name on the ticket
    #[elicit(default = "Ada")]
    name: String,
    /// Travel insurance?
    #[elicit(default = false)]
    insured: bool,
}

#[elicit(form, fallback = refuse)]
fn choose_seat() -> Form<SeatForm> {
    Form::new("Where would you like to sit?")
}

/// Books a seat, asking where.
#[tool(asks = [choose_seat])]
async fn book(cx: &Cx) -> String {
    match cx.ask(choose_seat()).await {
        Answer::Accept(f) => format!(
            "{} at the {}{}",
            f.name,
            match f.seat {
                Seat::Window => "window",
                Seat::Aisle => "aisle",
            },
            if f.insured { ", insured" } else { "" }
        ),
        _ => "no seat".into(),
    }
}

/// A page to pay on: URL-mode elicitation, which only 2025-11-25 on has.
#[elicit(url, fallback = refuse)]
fn pay_page() -> Url {
    Url::new("Pay on the page", "https://example.com/pay")
}

/// Pays on a page.
#[tool(asks = [pay_page])]
async fn pay(cx: &Cx) -> String {
    match cx.ask(pay_page()).await {
        Answer::Accept(_) => "paid".into(),
        _ => "not paid".into(),
    }
}

#[derive(Elicit)]
enum Topping {
    Cheese,
    Olives,
}

#[derive(Elicit)]
struct Pizza {
    toppings: Vec<Topping>,
}

fn plain_pizza() -> Answer<Pizza> {
    Answer::Accept(Pizza {
        toppings: Vec::new(),
    })
}

#[elicit(form, fallback = plain_pizza)]
fn choose_toppings() -> Form<Pizza> {
    Form::new("Toppings?")
}

/// Orders a pizza, asking for toppings (several at once).
#[tool(asks = [choose_toppings])]
async fn pizza(cx: &Cx) -> String {
    match cx.ask(choose_toppings()).await {
        Answer::Accept(p) => format!("{} toppings", p.toppings.len()),
        _ => "no pizza".into(),
    }
}

fn no_poem(_topic: &str) -> String {
    "no poem".into()
}

#[sample(fallback = no_poem)]
fn poem(topic: &str) -> Sample {
    Sample::user(format!("A haiku about {topic}")).max_tokens(50)
}

/// A haiku by the client's model, or none.
#[tool(asks = [poem])]
async fn haiku(cx: &Cx, topic: String) -> String {
    cx.ask(poem(&topic)).await
}

/// Greets someone.
#[prompt(title = "Greeting")]
async fn greet(name: String) -> GetPromptResult {
    GetPromptResult {
        description: None,
        messages: vec![PromptMessage::user(Content::text(format!("Hello {name}")))],
    }
}

/// The readme.
#[resource("file:///readme.md", title = "Read me", mime_type = "text/markdown")]
async fn readme() -> ResourceContents {
    ResourceContents::text("file:///readme.md", "text/markdown", "# Hi")
}

fn server() -> Server<Router> {
    let mut info = ServerInfo::new("revisions", "1.0.0").with_completions();
    info.implementation.title = Some("Revisions".into());
    info.implementation.description = Some("Every revision".into());
    Server::new(
        Router::new(info)
            .tools(tools![weather, media, count, book, pay, pizza, haiku])
            .prompts(rondo_mcp::prompts![greet])
            .resources(rondo_mcp::resources![readme]),
    )
}

async fn connect(revision: Revision, caps: ClientCapabilities, script: Script) -> TestClient {
    TestClient::builder(server(), revision)
        .capabilities(caps)
        .script(script)
        .connect()
        .await
        .unwrap_or_else(|e| panic!("{revision}: {e:?}"))
}

fn everything() -> ClientCapabilities {
    let mut caps = ClientCapabilities::with_elicitation_form();
    caps.sampling = ClientCapabilities::with_sampling().sampling;
    caps.roots = ClientCapabilities::with_roots().roots;
    caps
}

#[tokio::test]
async fn initialize_answers_the_version_asked_for_and_the_newest_for_any_other() {
    for revision in HANDSHAKE {
        // The test client fails to connect unless the server agrees to its version.
        let c = connect(revision, everything(), Script::new()).await;
        let init = c.initialize_result().expect("initialized");
        assert_eq!(init["protocolVersion"], revision.as_str());
    }
    for asked in ["2099-01-01", "2026-07-28", "1.0", "", "2025-13-45"] {
        let c = TestClient::builder(server(), Revision::V2025_11_25)
            .connect()
            .await
            .unwrap();
        let answer = c
            .raw_request(
                "initialize",
                json!({"protocolVersion": asked, "capabilities": {},
                       "clientInfo": {"name": "t", "version": "1"}}),
            )
            .await
            .unwrap();
        assert_eq!(answer["protocolVersion"], "2025-11-25", "asked {asked:?}");
    }
}

#[tokio::test]
async fn an_initialize_without_a_string_version_is_invalid_params() {
    for params in [
        json!({"capabilities": {}}),
        json!({"protocolVersion": 20250618}),
    ] {
        let c = TestClient::builder(server(), Revision::V2025_11_25)
            .skip_validation_of("InitializeRequest", "leaves out or mistypes the version")
            .connect()
            .await
            .unwrap();
        let e = c.raw_request("initialize", params).await.unwrap_err();
        assert_eq!(e.code, code::INVALID_PARAMS, "{e:?}");
        assert!(e.message.contains("protocolVersion"), "{}", e.message);
    }
}

#[tokio::test]
async fn the_server_s_info_and_capabilities_are_its_revision_s() {
    let at = |r| async move {
        let c = connect(r, ClientCapabilities::default(), Script::new()).await;
        c.initialize_result().cloned().expect("initialized")
    };
    let old = at(Revision::V2024_11_05).await;
    assert_eq!(
        old["serverInfo"],
        json!({"name": "revisions", "version": "1.0.0"})
    );
    assert!(old["capabilities"].get("completions").is_none());
    let mid = at(Revision::V2025_06_18).await;
    assert_eq!(mid["serverInfo"]["title"], "Revisions");
    assert!(mid["serverInfo"].get("description").is_none());
    assert!(mid["capabilities"].get("completions").is_some());
    let new = at(Revision::V2025_11_25).await;
    assert_eq!(new["serverInfo"]["description"], "Every revision");
}

#[tokio::test]
async fn listed_items_carry_only_their_revision_s_fields() {
    for revision in HANDSHAKE {
        let c = connect(revision, everything(), Script::new()).await;
        let tools = c.list_tools().await.unwrap();
        let weather = tools.iter().find(|t| t.name == "weather").unwrap();
        let annotated = revision >= Revision::V2025_03_26;
        let structured = revision >= Revision::V2025_06_18;
        assert_eq!(weather.annotations.is_some(), annotated, "{revision}");
        assert_eq!(weather.title.is_some(), structured, "{revision}");
        assert_eq!(weather.output_schema.is_some(), structured, "{revision}");
        let prompts = c.request("prompts/list", json!({})).await.unwrap();
        assert_eq!(
            prompts["prompts"][0].get("title").is_some(),
            structured,
            "{revision}"
        );
        let resources = c.request("resources/list", json!({})).await.unwrap();
        assert_eq!(
            resources["resources"][0].get("title").is_some(),
            structured,
            "{revision}"
        );
        c.assert_valid();
    }
}

#[tokio::test]
async fn results_carry_only_content_their_revision_has() {
    for revision in HANDSHAKE {
        let c = connect(revision, everything(), Script::new()).await;
        let call = c.call_tool("media", json!({})).await.unwrap();
        let types: Vec<&str> = call.result["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["type"].as_str().unwrap())
            .collect();
        let expected: &[&str] = match revision {
            Revision::V2024_11_05 => &["text", "text", "resource"],
            Revision::V2025_03_26 => &["audio", "text", "resource"],
            _ => &["audio", "resource_link", "resource"],
        };
        assert_eq!(types, expected, "{revision}");
        let embedded = &call.result["content"][2];
        let structured = revision >= Revision::V2025_06_18;
        assert_eq!(
            embedded["resource"].get("_meta").is_some(),
            structured,
            "{revision}"
        );
        assert_eq!(
            embedded["annotations"].get("lastModified").is_some(),
            structured,
            "{revision}"
        );
        if !structured {
            assert!(
                call.result["content"][1]["text"]
                    .as_str()
                    .unwrap()
                    .contains("file:///notes.txt"),
                "{revision}: {}",
                call.result
            );
        }
        let weather = c.call_tool("weather", json!({})).await.unwrap();
        assert_eq!(
            weather.result.get("structuredContent").is_some(),
            structured,
            "{revision}"
        );
        assert_eq!(weather.text(), r#"{"celsius":21.5}"#, "{revision}");
    }
}

#[tokio::test]
async fn progress_says_its_message_from_2025_03_26() {
    for revision in HANDSHAKE {
        let c = connect(revision, everything(), Script::new()).await;
        let params = json!({"name": "count", "arguments": {}, "_meta": {"progressToken": 7}});
        c.request("tools/call", params).await.unwrap();
        let progress: Vec<Value> = c
            .transcript()
            .into_iter()
            .filter(|f| f.direction == Direction::Received)
            .filter(|f| f.message["method"] == "notifications/progress")
            .map(|f| f.message["params"].clone())
            .collect();
        assert_eq!(progress.len(), 3, "{revision}");
        assert_eq!(
            progress[0].get("message").is_some(),
            revision >= Revision::V2025_03_26,
            "{revision}"
        );
    }
}

#[tokio::test]
async fn a_form_is_asked_from_2025_06_18_in_that_revision_s_words() {
    for revision in [Revision::V2025_06_18, Revision::V2025_11_25] {
        let c = connect(
            revision,
            everything(),
            Script::new().elicit(Reply::accept(
                json!({"seat": "Aisle", "name": "Grace", "insured": true}),
            )),
        )
        .await;
        let call = c.call_tool("book", json!({})).await.unwrap();
        assert_eq!(call.text(), "Grace at the aisle, insured", "{revision}");
        let asked = c
            .transcript()
            .into_iter()
            .find(|f| {
                f.direction == Direction::Received && f.message["method"] == "elicitation/create"
            })
            .expect("asked")
            .message;
        let params = &asked["params"];
        let schema = &params["requestedSchema"]["properties"];
        if revision == Revision::V2025_06_18 {
            assert!(params.get("mode").is_none());
            assert_eq!(schema["seat"]["enum"], json!(["Window", "Aisle"]));
            assert_eq!(
                schema["seat"]["enumNames"],
                json!(["By the window", "On the aisle"])
            );
            assert!(schema["name"].get("default").is_none());
            assert_eq!(schema["insured"]["default"], false);
        } else {
            assert_eq!(params["mode"], "form");
            assert!(schema["seat"].get("oneOf").is_some());
            assert_eq!(schema["name"]["default"], "Ada");
        }
        let declined = connect(revision, everything(), Script::new().elicit(Reply::Decline)).await;
        let call = declined.call_tool("book", json!({})).await.unwrap();
        assert_eq!(call.text(), "no seat", "{revision}");
    }
}

#[tokio::test]
async fn before_2025_06_18_a_form_takes_its_fallback_whatever_the_client_sent() {
    for revision in [Revision::V2024_11_05, Revision::V2025_03_26] {
        let c = TestClient::builder(server(), revision)
            .skip_validation_of(
                "InitializeRequest",
                "declares elicitation, which this revision does not have",
            )
            .connect()
            .await
            .unwrap();
        // The client opens its session again declaring elicitation, which its revision does
        // not have: it is not read.
        c.raw_request(
            "initialize",
            json!({"protocolVersion": revision.as_str(),
                   "capabilities": {"elicitation": {}, "sampling": {}},
                   "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await
        .unwrap();
        let e = c.call_tool("book", json!({})).await.unwrap_err();
        assert_eq!(e.code, -32021, "{revision}: {e:?}");
        assert!(e.message.contains("elicitation"), "{}", e.message);
        let pizza = c.call_tool("pizza", json!({})).await.unwrap();
        assert_eq!(pizza.text(), "0 toppings");
        assert!(
            c.transcript()
                .iter()
                .all(|f| f.message["method"] != "elicitation/create"),
            "{revision}"
        );
    }
}

#[tokio::test]
async fn a_refusal_says_when_the_client_s_revision_cannot_declare_what_is_missing() {
    let refused = |e: Error| {
        assert_eq!(e.code, code::MISSING_REQUIRED_CLIENT_CAPABILITY, "{e:?}");
        e.message
    };
    // A 2025-06-18 client that declared elicitation (form mode, all its revision has) is not
    // told that it lacks elicitation: it lacks a revision with URL mode.
    let c = connect(Revision::V2025_06_18, everything(), Script::new()).await;
    assert_eq!(
        refused(c.call_tool("pay", json!({})).await.unwrap_err()),
        "Server requires the elicitation capability for this request, in a form this client's \
         protocol revision (2025-06-18) does not have (data.requiredCapabilities says which)"
    );
    // Before 2025-06-18 there is no elicitation to declare.
    let sampling = ClientCapabilities::with_sampling();
    let c = connect(Revision::V2024_11_05, sampling, Script::new()).await;
    assert_eq!(
        refused(c.call_tool("book", json!({})).await.unwrap_err()),
        "Server requires the elicitation capability for this request, which this client's \
         protocol revision (2024-11-05) does not have"
    );
    // Where the revision could declare it, the client simply did not.
    for (revision, tool) in [
        (Revision::V2025_06_18, "book"),
        (Revision::V2025_11_25, "book"),
        (Revision::V2025_11_25, "pay"),
    ] {
        let c = connect(revision, ClientCapabilities::default(), Script::new()).await;
        assert_eq!(
            refused(c.call_tool(tool, json!({})).await.unwrap_err()),
            "Server requires the elicitation capability for this request",
            "{revision} {tool}"
        );
    }
}

#[tokio::test]
async fn a_multiple_choice_form_takes_its_fallback_at_2025_06_18_only() {
    let script = || Script::new().elicit(Reply::accept(json!({"toppings": ["Cheese", "Olives"]})));
    let old = connect(Revision::V2025_06_18, everything(), script()).await;
    assert_eq!(
        old.call_tool("pizza", json!({})).await.unwrap().text(),
        "0 toppings"
    );
    assert!(
        old.transcript()
            .iter()
            .all(|f| f.message["method"] != "elicitation/create")
    );
    let new = connect(Revision::V2025_11_25, everything(), script()).await;
    assert_eq!(
        new.call_tool("pizza", json!({})).await.unwrap().text(),
        "2 toppings"
    );
}

#[tokio::test]
async fn sampling_is_asked_at_every_handshake_revision_and_falls_back_without_it() {
    for revision in HANDSHAKE {
        let c = connect(
            revision,
            everything(),
            Script::new().sample(Reply::sample_text("an old pond")),
        )
        .await;
        let call = c
            .call_tool("haiku", json!({"topic": "frogs"}))
            .await
            .unwrap();
        assert_eq!(call.text(), "an old pond", "{revision}");
        let none = connect(revision, ClientCapabilities::default(), Script::new()).await;
        let call = none
            .call_tool("haiku", json!({"topic": "frogs"}))
            .await
            .unwrap();
        assert_eq!(call.text(), "no poem", "{revision}");
    }
}

#[tokio::test]
async fn prompts_resources_and_completions_work_at_every_revision() {
    for revision in HANDSHAKE {
        let c = connect(revision, ClientCapabilities::default(), Script::new()).await;
        let prompt = c
            .request(
                "prompts/get",
                json!({"name": "greet", "arguments": {"name": "Ada"}}),
            )
            .await
            .unwrap();
        assert_eq!(prompt["messages"][0]["content"]["text"], "Hello Ada");
        let read = c
            .request("resources/read", json!({"uri": "file:///readme.md"}))
            .await
            .unwrap();
        assert_eq!(read["contents"][0]["text"], "# Hi");
        c.assert_valid();
    }
}

#[tokio::test]
async fn cx_revision_is_the_session_s() {
    /// Says which revision serves it.
    #[tool]
    async fn which(cx: &Cx) -> String {
        cx.revision().to_string()
    }
    for revision in HANDSHAKE {
        let c = TestClient::builder(
            Server::new(Router::new(ServerInfo::new("w", "1")).tools(tools![which])),
            revision,
        )
        .connect()
        .await
        .unwrap();
        assert_eq!(
            c.call_tool("which", json!({})).await.unwrap().text(),
            revision.as_str()
        );
    }
}

/// The last line the client received, as JSON.
fn last_received(c: &TestClient) -> Value {
    c.transcript()
        .into_iter()
        .rev()
        .find(|f| f.direction == Direction::Received)
        .expect("an answer")
        .message
}

/// Waits until the client received `n` more lines than `before`.
async fn received_after(c: &TestClient, before: usize, n: usize) {
    for _ in 0..200 {
        let now = c
            .transcript()
            .iter()
            .filter(|f| f.direction == Direction::Received)
            .count();
        if now >= before + n {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("no answer: {:?}", c.transcript());
}

fn received_count(c: &TestClient) -> usize {
    c.transcript()
        .iter()
        .filter(|f| f.direction == Direction::Received)
        .count()
}

#[tokio::test]
async fn a_2025_03_26_session_takes_a_batch_and_answers_its_requests_in_one_array() {
    let c = connect(Revision::V2025_03_26, everything(), Script::new()).await;
    let before = received_count(&c);
    let batch = json!([
        {"jsonrpc": "2.0", "id": 10, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}},
        {"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {"name": "count", "arguments": {}}},
        {"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": {"name": "nope", "arguments": {}}},
    ]);
    c.raw_line(&batch.to_string()).await;
    received_after(&c, before, 1).await;
    let answer = last_received(&c);
    let mut ids: Vec<i64> = answer
        .as_array()
        .expect("one array")
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .collect();
    ids.sort();
    assert_eq!(ids, [10, 11, 12], "{answer}");
    let call = answer
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == 11)
        .unwrap();
    assert_eq!(call["result"]["content"][0]["text"], "three");
    c.assert_valid();
}

#[tokio::test]
async fn a_batch_of_only_notifications_is_answered_with_nothing() {
    let c = connect(Revision::V2025_03_26, everything(), Script::new()).await;
    let before = received_count(&c);
    let batch = json!([{"jsonrpc": "2.0", "method": "notifications/initialized"}]);
    c.raw_line(&batch.to_string()).await;
    // A ping after it is answered, and nothing came before its answer.
    c.request("ping", json!({})).await.unwrap();
    assert_eq!(received_count(&c), before + 1);
}

#[tokio::test]
async fn bad_batches_get_json_rpc_s_answers_and_other_revisions_refuse_batches() {
    let c = TestClient::builder(server(), Revision::V2025_03_26)
        .skip_validation_of("JSONRPCMessage", "sends bad batches on purpose")
        .skip_validation_of("JSONRPCRequest", "sends bad batch entries on purpose")
        .connect()
        .await
        .unwrap();
    // Entries that are no messages each get their own -32600; `initialize` may not be batched.
    let before = received_count(&c);
    let init = json!({"jsonrpc": "2.0", "id": 5, "method": "initialize",
        "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}});
    c.raw_line(&json!([1, [2], init]).to_string()).await;
    received_after(&c, before, 1).await;
    let answer = last_received(&c);
    let errors = answer.as_array().expect("one array");
    assert_eq!(errors.len(), 3, "{answer}");
    assert!(
        errors.iter().all(|e| e["error"]["code"] == -32600),
        "{answer}"
    );
    assert!(errors.iter().any(|e| e["id"] == 5), "{answer}");
    // Empty, oversized and malformed batches: one error each, no array.
    for (line, code) in [
        ("[]".to_owned(), -32600),
        (
            format!(
                "[{}]",
                vec![r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#; 101].join(",")
            ),
            -32600,
        ),
        ("[1,".to_owned(), -32700),
    ] {
        let before = received_count(&c);
        c.raw_line(&line).await;
        received_after(&c, before, 1).await;
        let answer = last_received(&c);
        assert_eq!(answer["error"]["code"], code, "{line:.40}: {answer}");
    }
    // A 2025-06-18 session refuses a batch whole, as every revision but 2025-03-26 does.
    let newer = TestClient::builder(server(), Revision::V2025_06_18)
        .skip_validation_of("JSONRPCMessage", "sends a batch, which 2025-06-18 removed")
        .connect()
        .await
        .unwrap();
    let before = received_count(&newer);
    newer
        .raw_line(&json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}]).to_string())
        .await;
    received_after(&newer, before, 1).await;
    let answer = last_received(&newer);
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
}
