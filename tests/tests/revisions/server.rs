//! The one server every revision is served from: tools with structured output, rich content,
//! progress, each kind of question (a form, a URL, several choices, sampling), a prompt and a
//! resource; and a client of any revision.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{Annotations, Content, Resource, ResourceContents, Revision};
use rondo_mcp::testing::{Script, TestClient};
use rondo_mcp::{Answer, Elicit, Form, Json, elicit, prompt, resource, sample, tool, tools};
use serde_json::json;

pub(super) const HANDSHAKE: [Revision; 4] = [
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

pub(super) fn server() -> Server<Router> {
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

pub(super) async fn connect(
    revision: Revision,
    caps: ClientCapabilities,
    script: Script,
) -> TestClient {
    TestClient::builder(server(), revision)
        .capabilities(caps)
        .script(script)
        .connect()
        .await
        .unwrap_or_else(|e| panic!("{revision}: {e:?}"))
}

pub(super) fn everything() -> ClientCapabilities {
    let mut caps = ClientCapabilities::with_elicitation_form();
    caps.sampling = ClientCapabilities::with_sampling().sampling;
    caps.roots = ClientCapabilities::with_roots().roots;
    caps
}
