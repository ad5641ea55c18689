//! The macros end to end: what `#[tool]`, `#[toolbox]`, `#[prompt]` and `#[resource]` generate,
//! served through the in-memory client at both revisions and checked against the schemas.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::TestClient;
use rondo_mcp::{Json, prompt, prompts, resource, resources, tool, toolbox, tools};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Adds two integers.
#[tool(read_only_hint = true, idempotent_hint)]
async fn add(#[arg(description = "The first term")] a: i64, b: i64) -> i64 {
    a + b
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Trip {
    /// Departure city
    from: String,
    /// Arrival city
    to: String,
}

#[derive(Serialize, schemars::JsonSchema)]
struct Quote {
    price: u32,
    route: String,
}

/// Quotes a trip.
#[tool(name = "quote.trip", title = "Trip quote")]
async fn quote(
    _cx: &Cx,
    #[args] trip: Trip,
    passengers: Option<u32>,
) -> Result<Json<Quote>, String> {
    if trip.from == trip.to {
        return Err(format!("{} to itself is not a trip", trip.from));
    }
    Ok(Json(Quote {
        price: 100 * passengers.unwrap_or(1),
        route: format!("{}-{}", trip.from, trip.to),
    }))
}

/// Points at the welcome note, and embeds it.
#[tool]
async fn links() -> Vec<Content> {
    let mut link = rondo_mcp::protocol::Resource::new("note://welcome", "welcome");
    link.mime_type = Some("text/plain".into());
    vec![
        Content::resource_link(link),
        Content::resource(ResourceContents::text(
            "note://welcome",
            "text/plain",
            "Welcome!",
        )),
        Content::audio("UklGRg==", "audio/wav"),
    ]
}

/// Lists numbers (a non-object structured output).
#[tool]
fn numbers() -> Json<Vec<u8>> {
    Json(vec![1, 2, 3])
}

struct Shop {
    stock: u32,
}

#[toolbox]
impl Shop {
    /// How many items are in stock.
    #[tool]
    async fn stock(&self) -> String {
        self.stock.to_string()
    }

    /// Orders items.
    #[tool(name = "order")]
    async fn place_order(&self, cx: &Cx, count: u32) -> Result<String, String> {
        let _ = cx.revision();
        if count > self.stock {
            Err(format!("only {} left", self.stock))
        } else {
            Ok(format!("ordered {count}"))
        }
    }

    #[allow(dead_code)]
    fn helper(&self) -> u32 {
        self.stock
    }
}

/// Greets someone.
#[prompt]
async fn greeting(
    #[arg(description = "Who to greet")] name: String,
    style: Option<String>,
) -> String {
    format!(
        "Say hello to {name} in a {} way.",
        style.as_deref().unwrap_or("plain")
    )
}

/// A fixed note.
#[resource("note://welcome", mime_type = "text/plain")]
async fn welcome() -> ResourceContents {
    ResourceContents::text("note://welcome", "text/plain", "Welcome!")
}

/// A note by id.
#[resource("note://items/{id}", name = "item", mime_type = "text/plain")]
async fn item(cx: &Cx, id: String) -> Result<ResourceContents, Error> {
    let uri = format!("note://items/{id}");
    if id == "0" {
        Err(Error::resource_not_found(&uri))
    } else {
        Ok(ResourceContents::text(
            uri,
            "text/plain",
            format!("Item {id} for {:?}", cx.revision()),
        ))
    }
}

fn server() -> Server<Router> {
    let router = Router::new(ServerInfo::new("macro-test", "1.0.0"))
        .tools(tools![add, quote, numbers, links])
        .tools(Shop { stock: 3 })
        .prompts(prompts![greeting])
        .resources(resources![welcome, item]);
    Server::new(router)
}

#[tokio::test]
async fn tools_are_listed_with_schemas_descriptions_and_hints() {
    let client = TestClient::modern(server()).connect().await.unwrap();
    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        ["add", "quote.trip", "numbers", "links", "stock", "order"]
    );
    let add = &tools[0];
    assert_eq!(add.description.as_deref(), Some("Adds two integers."));
    assert_eq!(
        add.input_schema["properties"]["a"]["description"],
        "The first term"
    );
    assert_eq!(add.input_schema["required"], json!(["a", "b"]));
    let ann = add.annotations.as_ref().unwrap();
    assert_eq!(
        (
            ann.read_only_hint,
            ann.idempotent_hint,
            ann.destructive_hint
        ),
        (Some(true), Some(true), None)
    );
    let quote = &tools[1];
    assert_eq!(quote.title.as_deref(), Some("Trip quote"));
    assert_eq!(
        quote.input_schema["properties"]["from"]["description"],
        "Departure city"
    );
    assert_eq!(quote.input_schema["required"], json!(["from", "to"]));
    assert_eq!(
        quote.output_schema.as_ref().unwrap()["properties"]["price"]["type"],
        "integer"
    );
    assert_eq!(tools[4].input_schema, Tool::no_arguments());
}

#[tokio::test]
async fn tools_run_and_errors_are_results() {
    let client = TestClient::modern(server()).connect().await.unwrap();
    assert_eq!(
        client
            .call_tool("add", json!({"a": 2, "b": 40}))
            .await
            .unwrap()
            .text(),
        "42"
    );
    let bad = client.call_tool("add", json!({"a": "two"})).await.unwrap();
    assert!(bad.is_error());
    assert!(
        bad.text().starts_with("Invalid arguments for tool `add`"),
        "{}",
        bad.text()
    );
    let q = client
        .call_tool(
            "quote.trip",
            json!({"from": "Oslo", "to": "Rome", "passengers": 2}),
        )
        .await
        .unwrap();
    assert_eq!(
        q.result["structuredContent"],
        json!({"price": 200, "route": "Oslo-Rome"})
    );
    let e = client
        .call_tool("quote.trip", json!({"from": "Oslo", "to": "Oslo"}))
        .await
        .unwrap();
    assert!(e.is_error() && e.text() == "Oslo to itself is not a trip");
    assert_eq!(
        client.call_tool("stock", json!({})).await.unwrap().text(),
        "3"
    );
    assert_eq!(
        client
            .call_tool("order", json!({"count": 2}))
            .await
            .unwrap()
            .text(),
        "ordered 2"
    );
    assert!(
        client
            .call_tool("order", json!({"count": 5}))
            .await
            .unwrap()
            .is_error()
    );
    let n = client.call_tool("numbers", json!({})).await.unwrap();
    assert_eq!(n.result["structuredContent"], json!([1, 2, 3]));
}

#[tokio::test]
async fn argument_errors_name_the_argument() {
    let client = TestClient::modern(server()).connect().await.unwrap();
    let wrong = client
        .call_tool("add", json!({"a": "two", "b": 1}))
        .await
        .unwrap();
    assert!(wrong.is_error());
    assert!(
        wrong
            .text()
            .starts_with("Invalid arguments for tool `add`: `a`: invalid type"),
        "{}",
        wrong.text()
    );
    let missing = client.call_tool("add", json!({"a": 1})).await.unwrap();
    assert_eq!(
        missing.text(),
        "Invalid arguments for tool `add`: missing field `b`"
    );
    let absent_optional = client
        .call_tool("quote.trip", json!({"from": "Oslo", "to": "Rome"}))
        .await
        .unwrap();
    assert_eq!(absent_optional.result["structuredContent"]["price"], 100);
}

#[tokio::test]
async fn legacy_clients_get_object_outputs_only() {
    let client = TestClient::legacy(server()).connect().await.unwrap();
    let tools = client.list_tools().await.unwrap();
    let numbers = tools.iter().find(|t| t.name == "numbers").unwrap();
    assert!(numbers.output_schema.is_none());
    let n = client.call_tool("numbers", json!({})).await.unwrap();
    assert!(n.result.get("structuredContent").is_none());
    assert_eq!(n.text(), "[1,2,3]");
}

#[tokio::test]
async fn prompts_and_resources() {
    let client = TestClient::modern(server()).connect().await.unwrap();
    let list = client.request("prompts/list", json!({})).await.unwrap();
    assert_eq!(
        list["prompts"][0]["arguments"],
        json!([
            {"name": "name", "description": "Who to greet", "required": true},
            {"name": "style", "required": false}
        ])
    );
    let p = client
        .get_prompt("greeting", json!({"name": "Ada"}))
        .await
        .unwrap();
    assert_eq!(p.text(), "Say hello to Ada in a plain way.");
    let e = client
        .request("prompts/get", json!({"name": "greeting", "arguments": {}}))
        .await
        .unwrap_err();
    assert_eq!(e.code, -32602);
    let r = client.read_resource("note://welcome").await.unwrap();
    assert_eq!(r.result["contents"][0]["text"], "Welcome!");
    let r = client.read_resource("note://items/7").await.unwrap();
    assert_eq!(r.result["contents"][0]["text"], "Item 7 for V2026_07_28");
    let e = client
        .request("resources/read", json!({"uri": "note://items/0"}))
        .await
        .unwrap_err();
    assert_eq!(
        (e.code, e.data.unwrap()["uri"].clone()),
        (-32602, json!("note://items/0"))
    );
    let e = client
        .request("resources/read", json!({"uri": "note://nope"}))
        .await
        .unwrap_err();
    assert_eq!(e.code, -32602);
    let t = client
        .request("resources/templates/list", json!({}))
        .await
        .unwrap();
    assert_eq!(
        t["resourceTemplates"][0]["uriTemplate"],
        "note://items/{id}"
    );
}

#[tokio::test]
async fn every_content_type_validates_at_both_revisions() {
    for rev in [Revision::V2026_07_28, Revision::V2025_11_25] {
        let client = TestClient::builder(server(), rev).connect().await.unwrap();
        let call = client.call_tool("links", json!({})).await.unwrap();
        let types: Vec<&str> = call.result["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["type"].as_str().unwrap())
            .collect();
        assert_eq!(types, ["resource_link", "resource", "audio"]);
        assert_eq!(call.result["content"][0]["uri"], "note://welcome");
    }
}

/// Names the method it was called through, from the typed `Cx::method()`.
#[tool]
async fn called_through(cx: &Cx) -> String {
    match cx.method() {
        rondo_mcp::protocol::Method::ToolsCall => format!("typed {}", cx.method().as_str()),
        other => format!("unexpected {other:?}"),
    }
}

#[tokio::test]
async fn the_context_names_its_method_typed_at_both_revisions() {
    let server =
        || Server::new(Router::new(ServerInfo::new("m", "1")).tools(tools![called_through]));
    for client in [TestClient::modern(server()), TestClient::legacy(server())] {
        let client = client.connect().await.unwrap();
        let call = client.call_tool("called_through", json!({})).await.unwrap();
        assert_eq!(call.text(), "typed tools/call");
    }
}
