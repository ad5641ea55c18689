//! Hygiene (CONTRIBUTING.md, "Paths and hygiene"): every macro (`skills!`, and the question
//! macros `#[elicit]`, `#[sample]` and `#[roots]` too, asked from tools, a toolbox method and a
//! prompt) is used in a module that shadows the prelude names and the runtime's name (`struct Result; struct Ok; ..;
//! struct Scope; mod rondo_mcp {}`), under `#![deny(warnings)]`. It compiles only if the
//! expansions name everything by absolute path, and the server it builds answers. Primitive types
//! (`str`, `bool`) are not shadowed: the serde and schemars derives the user's own types need do
//! not qualify them.

#![deny(warnings)]

mod shadowed {
    #[allow(dead_code)]
    struct Result;
    #[allow(dead_code)]
    struct Ok;
    #[allow(dead_code)]
    struct Option;
    #[allow(dead_code)]
    struct Some;
    #[allow(dead_code)]
    struct None;
    #[allow(dead_code)]
    struct Box;
    #[allow(dead_code)]
    struct String;
    #[allow(dead_code)]
    struct Vec;
    #[allow(dead_code)]
    struct Scope;
    mod rondo_mcp {}

    use ::rondo_mcp::prelude::{Cx, Error, ResourceContents, Router, Server, ServerInfo};
    use ::rondo_mcp::{
        Answer, Elicit, Fallback, Form, Roots, Sample, Url, elicit, prompt, prompts, resource,
        resources, roots, sample, skills, tool, toolbox, tools,
    };

    type Text = ::std::string::String;
    type Maybe<T> = ::core::option::Option<T>;

    /// Echoes a text, some times.
    #[tool(read_only_hint = true)]
    pub async fn echo(
        cx: &Cx,
        #[arg(description = "What to echo")] text: Text,
        times: Maybe<usize>,
    ) -> ::core::result::Result<Text, Text> {
        let _ = cx.revision();
        ::core::result::Result::Ok(text.repeat(times.unwrap_or(1)))
    }

    /// Answers pong.
    #[tool(task = optional, scopes = ["ping"])]
    fn ping() -> &'static ::core::primitive::str {
        "pong"
    }

    #[derive(::serde::Deserialize, ::schemars::JsonSchema)]
    pub struct Order {
        /// How many.
        count: u32,
    }

    pub struct Shop {
        stock: u32,
    }

    #[toolbox]
    impl Shop {
        /// Orders items.
        #[tool(name = "order", task = optional, task_start = explicit, scopes = ["shop:order"])]
        async fn order(&self, _cx: &Cx, #[args] order: Order) -> Text {
            ::std::format!("{} of {}", order.count, self.stock)
        }

        /// Restocks after asking.
        #[tool(asks = [confirm])]
        async fn restock(&self, cx: &Cx, item: Text) -> Text {
            match cx.ask(confirm(&item, self.stock)).await {
                Answer::Accept(c) if c.approve => ::std::format!("restocked {item}"),
                _ => Text::new(),
            }
        }
    }

    /// Greets someone, asking first.
    #[prompt(asks = [confirm])]
    async fn asked_greeting(cx: &Cx, name: Text) -> Text {
        let ok = ::core::matches!(cx.ask(confirm(&name, 1)).await, Answer::Accept(_));
        ::std::format!("hello {name} ({ok})")
    }

    /// Greets someone.
    #[prompt(scopes = ["prompts"])]
    fn greeting(name: Text, style: Maybe<Text>) -> Text {
        ::std::format!("hello {name} {}", style.unwrap_or_default())
    }

    /// A note by id.
    #[resource("note://{id}", mime_type = "text/plain", scopes = ["notes:read"])]
    async fn note(id: Text) -> ::core::result::Result<ResourceContents, Error> {
        ::core::result::Result::Ok(ResourceContents::text(
            ::std::format!("note://{id}"),
            "text/plain",
            id,
        ))
    }

    /// The welcome note.
    #[resource("note://welcome")]
    fn welcome() -> ResourceContents {
        ResourceContents::text("note://welcome", "text/plain", "hi")
    }

    /// A choice.
    #[derive(Elicit, Debug, PartialEq)]
    pub enum Seat {
        /// By the window
        Window,
        Aisle,
    }

    /// A form with every kind of field.
    #[derive(Elicit)]
    pub struct Approval {
        /// Book this trip?
        pub approve: bool,
        pub seat: Maybe<Seat>,
        #[elicit(default = false)]
        pub insurance: bool,
        #[elicit(default = "none", max_length = 20)]
        pub note: Text,
        #[elicit(min_items = 1)]
        pub extras: ::std::vec::Vec<Seat>,
        #[elicit(min = 1, max = 9)]
        pub travellers: u8,
        pub budget: Maybe<f64>,
    }

    /// The order to confirm.
    #[derive(Elicit)]
    pub struct Confirm {
        /// Go ahead?
        pub approve: bool,
    }

    /// Plain data, for `fallback = args`.
    #[derive(Elicit)]
    pub struct Guest {
        /// Your name
        pub name: Text,
    }

    /// Asks before ordering.
    #[elicit(form, fallback = refuse)]
    pub fn confirm(item: &::core::primitive::str, count: u32) -> Form<Confirm> {
        Form::new(::std::format!("Order {count} {item}?"))
    }

    /// Asks who is there; without forms, the fields are tool arguments.
    #[elicit(form, fallback = args)]
    pub fn guest() -> Form<Guest> {
        Form::new("Who is there?")
    }

    /// Sends the user to pay; without URL mode, a fallback function answers.
    #[elicit(url, fallback = unpaid)]
    pub fn pay(order: &::core::primitive::str) -> Url {
        Url::new("Pay", ::std::format!("https://pay.example.com/{order}"))
    }

    fn unpaid(_order: &::core::primitive::str) -> Answer<::rondo_mcp::UrlFlow> {
        Answer::Decline
    }

    /// Orders after asking.
    #[tool(asks = [confirm, guest, pay])]
    async fn order_now(cx: &Cx, item: Text) -> ::core::result::Result<Text, Text> {
        let who = match cx.ask(guest()).await {
            Answer::Accept(g) => g.name,
            _ => Text::new(),
        };
        if let Answer::Accept(_) = cx.ask(pay(&item)).await {
            return ::core::result::Result::Err("paying".into());
        }
        match cx.ask(confirm(&item, 1)).await {
            Answer::Accept(c) if c.approve => {
                ::core::result::Result::Ok(::std::format!("{who}: {item}"))
            }
            _ => ::core::result::Result::Err("not ordered".into()),
        }
    }

    /// The model's picks.
    #[derive(::serde::Serialize, ::serde::Deserialize, ::schemars::JsonSchema)]
    pub struct Picks {
        /// The best items.
        pub best: ::std::vec::Vec<Text>,
    }

    /// Lets the client's model pick; without sampling, the first two.
    #[sample(fallback = first_two)]
    pub fn pick(items: &[Text]) -> Sample<Picks> {
        Sample::user(items.join(", ")).max_tokens(100)
    }

    fn first_two(items: &[Text]) -> Picks {
        Picks {
            best: items.iter().take(2).cloned().collect(),
        }
    }

    /// A one-line summary from the client's model, or an `async` fallback.
    #[sample(fallback = summarize_here)]
    pub fn summary(text: &::core::primitive::str) -> Sample {
        Sample::user(::std::format!("Summarize: {text}"))
    }

    async fn summarize_here(text: &::core::primitive::str) -> Text {
        text.chars().take(5).collect()
    }

    /// The client's roots, or the folders passed in.
    #[roots(fallback = given)]
    pub fn workspace(folders: &[Text]) -> Roots;

    fn given(folders: &[Text]) -> Fallback<Roots> {
        if folders.is_empty() {
            return Fallback::fail("pass `folders`");
        }
        Fallback::Answer(Roots::from_paths(folders))
    }

    /// The client's roots, or nothing.
    #[roots(fallback = refuse)]
    pub fn required_roots() -> Roots;

    /// Plans with the client's model and roots.
    #[tool(asks = [pick, summary, workspace, required_roots])]
    async fn plan(cx: &Cx, items: ::std::vec::Vec<Text>, folders: ::std::vec::Vec<Text>) -> Text {
        if items.is_empty() {
            let _ = cx.ask(required_roots()).await;
        }
        let picks = cx.ask(pick(&items)).await;
        let summary = cx.ask(summary(&items.join(" "))).await;
        let roots = cx.ask(workspace(&folders)).await;
        ::std::format!("{} {summary} {}", picks.best.join(","), roots.paths().len())
    }

    pub fn server() -> Server<Router> {
        let router = Router::new(ServerInfo::new("hygiene", "1.0.0"))
            .tools(tools![echo, ping, order_now, plan])
            .tools(Shop { stock: 3 })
            .prompts(prompts![greeting, asked_greeting])
            .resources(resources![note, welcome])
            .skills(skills!("fixtures/skills/good"));
        Server::new(router)
    }
}

use rondo_mcp::testing::TestClient;
use serde_json::json;

#[tokio::test]
async fn expansions_survive_shadowed_names() {
    let client = TestClient::modern(shadowed::server())
        .connect()
        .await
        .unwrap();
    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        ["echo", "ping", "order_now", "plan", "order", "restock"]
    );
    // `fallback = args`: the form's field joins the tool's arguments.
    let order_now = tools.iter().find(|t| t.name == "order_now").unwrap();
    let schema = serde_json::to_value(order_now).unwrap();
    assert!(schema["inputSchema"]["properties"]["name"].is_object());
    let echo = client
        .call_tool("echo", json!({"text": "ab", "times": 2}))
        .await
        .unwrap();
    assert_eq!(echo.text(), "abab");
    let order = client
        .call_tool("order", json!({"count": 2}))
        .await
        .unwrap();
    assert_eq!(order.text(), "2 of 3");
    let prompt = client
        .get_prompt("greeting", json!({"name": "Ada"}))
        .await
        .unwrap();
    assert_eq!(prompt.text(), "hello Ada ");
    let note = client.read_resource("note://7").await.unwrap();
    assert_eq!(note.result["contents"][0]["text"], "7");
    let skill = client
        .request("skills/get", json!({"uri": "skill://outer/inner/SKILL.md"}))
        .await
        .unwrap();
    assert_eq!(skill["skill"]["frontmatter"]["name"], "inner");
    // `#[sample]` and `#[roots]`: a client without either gets the fallbacks' answers.
    let plan = client
        .call_tool(
            "plan",
            json!({"items": ["a", "b", "c"], "folders": ["/srv/data"]}),
        )
        .await
        .unwrap();
    assert_eq!(plan.text(), "a,b a b c 1");
}

#[test]
fn derive_elicit_survives_shadowed_names() {
    use rondo_mcp::Elicit;
    use rondo_mcp::protocol::Revision;
    let schema = shadowed::Approval::requested_schema(Revision::V2026_07_28);
    assert_eq!(
        schema["required"],
        json!(["approve", "extras", "travellers"])
    );
    let answer = json!({"approve": true, "extras": ["Aisle"], "travellers": 2});
    let a = shadowed::Approval::from_content(answer.as_object().unwrap()).unwrap();
    assert!(a.approve && !a.insurance && a.seat.is_none() && a.budget.is_none());
    assert_eq!((a.note.as_str(), a.travellers), ("none", 2));
    assert_eq!(a.extras, [shadowed::Seat::Aisle]);
}
