//! What a tool, prompt or resource may ask, in its listing: each item's
//! `_meta["dev.rondo/asks"]` lists the questions of its `asks = [..]` in declaration order (key,
//! kind, mode, fallback, required), at both revisions, schema-checked by the in-memory client;
//! an item that asks nothing has no such key, and `Router::advertise_asks(false)` leaves it out
//! everywhere. The sweep fails a prompt that asks what its listing does not advertise.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::TestClient;
use rondo_mcp::{
    ASKS_META_KEY, Elicit, Fallback, elicit, prompt, prompts, resource, resources, roots, sample,
    tool, toolbox, tools,
};
use serde_json::{Value, json};

const BOTH: [Revision; 2] = [Revision::V2026_07_28, Revision::V2025_11_25];

/// The plan's go-ahead.
#[derive(Elicit)]
struct GoAhead {
    /// Go ahead?
    go: bool,
}

/// A traveller's name.
#[derive(Elicit)]
struct Traveller {
    /// Your name
    name: String,
}

#[elicit(form, fallback = refuse)]
fn confirm_plan(steps: u32) -> Form<GoAhead> {
    Form::new(format!("Run the plan of {steps} steps?"))
}

#[elicit(form, fallback = args)]
fn who() -> Form<Traveller> {
    Form::new("Who travels?")
}

#[elicit(url, fallback = refuse)]
fn pay_page() -> Url {
    Url::new(
        "Pay on the provider's page",
        "https://pay.example.com/checkout",
    )
}

#[sample(fallback = first_step)]
fn pick_step(steps: u32) -> Sample {
    Sample::user(format!("Pick one of {steps} steps")).max_tokens(20)
}

fn first_step(_steps: u32) -> String {
    "step 1".to_owned()
}

#[roots(fallback = no_folders)]
fn work_roots() -> Roots;

fn no_folders() -> Fallback<Roots> {
    Fallback::fail("no folders")
}

/// Plans: asks for a go-ahead (required), the client's model and its roots (both optional).
#[tool(asks = [confirm_plan, pick_step, work_roots])]
async fn plan(cx: &Cx, steps: u32) -> String {
    match cx.ask(confirm_plan(steps)).await {
        Answer::Accept(a) if a.go => cx.ask(pick_step(steps)).await,
        _ => "stopped".to_owned(),
    }
}

/// Books: every question has a fallback.
#[tool(asks = [who, pick_step])]
async fn book(cx: &Cx) -> String {
    match cx.ask(who()).await {
        Answer::Accept(t) => format!("booked for {}", t.name),
        _ => "not booked".to_owned(),
    }
}

/// Pays on the provider's page.
#[tool(asks = [pay_page])]
async fn pay(cx: &Cx) -> String {
    let _ = cx.ask(pay_page()).await;
    "paid".to_owned()
}

/// Asks nothing.
#[tool]
async fn ping() -> String {
    "pong".to_owned()
}

struct Desk;

#[toolbox]
impl Desk {
    /// Checks in, asking the client's roots.
    #[tool(asks = [work_roots])]
    async fn check_in(&self, cx: &Cx) -> String {
        let _ = cx.ask(work_roots()).await;
        "in".to_owned()
    }
}

/// A trip plan, approved by the user.
#[prompt(asks = [confirm_plan, pick_step])]
async fn trip_prompt(cx: &Cx) -> String {
    let go = matches!(cx.ask(confirm_plan(3)).await, Answer::Accept(g) if g.go);
    format!("Plan the trip: {go}")
}

/// A plain prompt.
#[prompt]
async fn plain_prompt() -> String {
    "plain".into()
}

/// The workspace's notes, from the client's roots.
#[resource("notes://workspace", asks = [work_roots])]
async fn notes(cx: &Cx) -> rondo_mcp::protocol::ResourceContents {
    let roots = cx.ask(work_roots()).await.paths().len();
    rondo_mcp::protocol::ResourceContents::text(
        "notes://workspace",
        "text/plain",
        format!("{roots} roots"),
    )
}

/// A plan's card, the user approving it first.
#[resource("card://{id}", asks = [confirm_plan])]
async fn card(cx: &Cx, id: String) -> rondo_mcp::protocol::ResourceContents {
    let go = matches!(cx.ask(confirm_plan(1)).await, Answer::Accept(g) if g.go);
    rondo_mcp::protocol::ResourceContents::text(
        format!("card://{id}"),
        "text/plain",
        format!("{go}"),
    )
}

fn router() -> Router {
    Router::new(ServerInfo::new("asks", "1.0.0"))
        .tools(tools![plan, book, pay, ping])
        .tools(Desk)
        .prompts(prompts![trip_prompt, plain_prompt])
        .resources(resources![notes, card])
}

/// `tools/list` at `rev`, as the client received it (the raw JSON, every message schema-checked).
async fn listed(router: Router, rev: Revision) -> Vec<Value> {
    list(router, rev, "tools/list", "tools").await
}

/// The list `method` answers at `rev`, its `field`.
async fn list(router: Router, rev: Revision, method: &str, field: &str) -> Vec<Value> {
    let c = TestClient::builder(Server::new(router), rev)
        .connect()
        .await
        .expect("connects");
    let r = c.request(method, json!({})).await.unwrap();
    c.assert_valid();
    r[field].as_array().cloned().expect("a list")
}

/// `item`'s advertised questions in the list `method` answers, by its `field` and `id`.
async fn listed_asks(
    router: Router,
    rev: Revision,
    method: &str,
    field: &str,
    id: (&str, &str),
) -> Value {
    let items = list(router, rev, method, field).await;
    let item = items.iter().find(|i| i[id.0] == id.1).expect(id.1);
    item["_meta"][ASKS_META_KEY].clone()
}

fn asks_of<'a>(tools: &'a [Value], name: &str) -> &'a Value {
    let tool = tools.iter().find(|t| t["name"] == name).expect(name);
    &tool["_meta"][ASKS_META_KEY]
}

#[tokio::test]
async fn each_tool_lists_its_questions_in_declaration_order() {
    for rev in BOTH {
        let tools = listed(router(), rev).await;
        assert_eq!(
            asks_of(&tools, "plan"),
            &json!([
                {"key": "confirm_plan", "kind": "elicitation", "mode": "form", "fallback": "refuse", "required": true},
                {"key": "pick_step", "kind": "sampling", "fallback": "function", "required": false},
                {"key": "work_roots", "kind": "roots", "fallback": "function", "required": false},
            ]),
            "{rev}"
        );
        assert_eq!(
            asks_of(&tools, "book"),
            &json!([
                {"key": "who", "kind": "elicitation", "mode": "form", "fallback": "args", "required": false},
                {"key": "pick_step", "kind": "sampling", "fallback": "function", "required": false},
            ]),
            "{rev}"
        );
        assert_eq!(
            asks_of(&tools, "pay"),
            &json!([{"key": "pay_page", "kind": "elicitation", "mode": "url", "fallback": "refuse", "required": true}]),
            "{rev}"
        );
        assert_eq!(
            asks_of(&tools, "check_in"),
            &json!([{"key": "work_roots", "kind": "roots", "fallback": "function", "required": false}]),
            "{rev}"
        );
    }
}

/// A host tells the tools that need a capability from those that only can use one.
#[tokio::test]
async fn a_required_capability_is_told_apart_from_an_optional_one() {
    for rev in BOTH {
        let tools = listed(router(), rev).await;
        let requires = |name: &str| -> Vec<String> {
            asks_of(&tools, name)
                .as_array()
                .into_iter()
                .flatten()
                .filter(|q| q["required"] == true)
                .map(|q| {
                    format!(
                        "{}/{}",
                        q["kind"].as_str().unwrap(),
                        q["mode"].as_str().unwrap_or("-")
                    )
                })
                .collect()
        };
        assert_eq!(requires("plan"), ["elicitation/form"], "{rev}");
        assert_eq!(requires("pay"), ["elicitation/url"], "{rev}");
        assert!(requires("book").is_empty(), "{rev}");
        assert!(requires("check_in").is_empty(), "{rev}");
    }
}

#[tokio::test]
async fn a_tool_that_asks_nothing_has_no_such_key() {
    for rev in BOTH {
        let tools = listed(router(), rev).await;
        let ping = tools.iter().find(|t| t["name"] == "ping").unwrap();
        assert!(ping.get("_meta").is_none(), "{rev}: {ping:#}");
    }
}

#[tokio::test]
async fn advertise_asks_false_leaves_the_key_out_of_every_tool() {
    for rev in BOTH {
        // Off before the tools are added, and after.
        let before = Router::new(ServerInfo::new("asks", "1.0.0"))
            .advertise_asks(false)
            .tools(tools![plan, book, pay, ping])
            .tools(Desk);
        for router in [before, router().advertise_asks(false)] {
            let tools = listed(router, rev).await;
            assert_eq!(tools.len(), 5, "{rev}");
            for t in &tools {
                assert!(t.get("_meta").is_none(), "{rev}: {t:#}");
            }
        }
        let on = listed(router().advertise_asks(true), rev).await;
        assert!(asks_of(&on, "plan").is_array(), "{rev}");
    }
}

#[tokio::test]
async fn prompts_resources_and_templates_list_their_questions_too() {
    let form = |key: &str, fallback: &str| json!({"key": key, "kind": "elicitation", "mode": "form", "fallback": fallback, "required": fallback == "refuse"});
    for rev in BOTH {
        let asks = listed_asks(
            router(),
            rev,
            "prompts/list",
            "prompts",
            ("name", "trip_prompt"),
        )
        .await;
        assert_eq!(
            asks,
            json!([form("confirm_plan", "refuse"),
                   {"key": "pick_step", "kind": "sampling", "fallback": "function", "required": false}]),
            "{rev}"
        );
        let plain = listed_asks(
            router(),
            rev,
            "prompts/list",
            "prompts",
            ("name", "plain_prompt"),
        )
        .await;
        assert_eq!(plain, Value::Null, "{rev}: a prompt that asks nothing");
        let asks = listed_asks(
            router(),
            rev,
            "resources/list",
            "resources",
            ("uri", "notes://workspace"),
        )
        .await;
        assert_eq!(
            asks,
            json!([{"key": "work_roots", "kind": "roots", "fallback": "function", "required": false}]),
            "{rev}"
        );
        let asks = listed_asks(
            router(),
            rev,
            "resources/templates/list",
            "resourceTemplates",
            ("uriTemplate", "card://{id}"),
        )
        .await;
        assert_eq!(asks, json!([form("confirm_plan", "refuse")]), "{rev}");
        // Off: out of every list.
        for (method, field) in [
            ("prompts/list", "prompts"),
            ("resources/list", "resources"),
            ("resources/templates/list", "resourceTemplates"),
        ] {
            for item in list(router().advertise_asks(false), rev, method, field).await {
                assert!(item.get("_meta").is_none(), "{rev} {method}: {item:#}");
            }
        }
    }
}

/// A prompt written by hand whose listing advertises one question and that asks another.
struct Lying;

impl rondo_mcp::PromptHandler for Lying {
    const NAME: &'static str = "lying";
    fn definition() -> rondo_mcp::protocol::Prompt {
        let mut p = rondo_mcp::protocol::Prompt::new("lying", "Asks what it does not advertise.");
        let advertised = json!([{"key": "listed", "kind": "elicitation", "mode": "form", "fallback": "function", "required": false}]);
        p.meta = Some(rondo_mcp::protocol::JsonObject::from_iter([(
            ASKS_META_KEY.to_owned(),
            advertised,
        )]));
        p
    }
    fn get<'a>(
        cx: &'a Cx,
        _: &'a rondo_mcp::protocol::JsonObject,
    ) -> rondo_mcp::BoxFuture<'a, Result<rondo_mcp::protocol::GetPromptResult, Error>> {
        Box::pin(async move {
            let form = rondo_mcp::protocol::ElicitRequest::Form {
                message: "Who are you?".into(),
                requested_schema: serde_json::from_value(
                    json!({"type": "object", "properties": {}}),
                )
                .unwrap(),
            };
            let _ = cx
                .ask_raw(
                    "hidden",
                    rondo_mcp::protocol::InputRequest::Elicit(form),
                    |_| Ok(()),
                )
                .await;
            Ok(rondo_mcp::protocol::GetPromptResult {
                description: None,
                messages: vec![],
            })
        })
    }
}

#[tokio::test]
async fn the_sweep_fails_a_prompt_that_asks_what_it_does_not_advertise() {
    let report = rondo_mcp::testing::Sweep::new(|| {
        Server::new(
            Router::new(ServerInfo::new("lies", "1"))
                .prompts(rondo_mcp::PromptSet::new().with::<Lying>()),
        )
    })
    .revisions([Revision::V2026_07_28])
    .collect()
    .await;
    let unadvertised: Vec<_> = report
        .findings()
        .iter()
        .filter(|f| {
            f.problem.contains(
                "asked `hidden`, which its listing does not advertise (it lists [\"listed\"])",
            )
        })
        .collect();
    assert!(!unadvertised.is_empty(), "{report}");
    assert!(unadvertised.iter().all(|f| f.target == "lying"), "{report}");
}
