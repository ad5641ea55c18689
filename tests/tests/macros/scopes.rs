//! `scopes = [..]` on `#[tool]`, `#[prompt]`, `#[resource]` and on `#[toolbox]` methods: the
//! scopes each expansion declares (`ToolHandler::SCOPES`, `PromptHandler::SCOPES`,
//! `ResourceHandler::SCOPES`, `ToolBox::scopes`), and what a `Router` built from them answers
//! (`Handler::tool_scopes`, `prompt_scopes`, `resource_scopes`, `declared_scopes`).

use rondo_mcp::prelude::*;
use rondo_mcp::{
    PromptHandler, ResourceHandler, Scope, ToolBox, ToolHandler, prompt, prompts, resource,
    resources, tool, toolbox, tools,
};

/// Needs nothing.
#[tool]
async fn open() -> String {
    String::new()
}

/// Needs both scopes, in the order written.
#[tool(scopes = ["orders:write", "books:read"])]
async fn order_book() -> String {
    String::new()
}

/// Every kind of character a scope-token may hold; a raw string is a string literal too.
#[tool(name = "odd", scopes = ["!#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~", "a", r"raw"])]
async fn odd_scopes() -> String {
    String::new()
}

struct Shop;

#[toolbox]
impl Shop {
    /// Needs nothing.
    #[tool]
    async fn browse(&self) -> String {
        String::new()
    }

    /// Listed under its `name`, with the scopes under that name.
    #[tool(name = "refund", scopes = ["orders:write", "payments"])]
    async fn refund_method(&self) -> String {
        String::new()
    }

    /// One scope.
    #[tool(scopes = ["books:read"], read_only_hint)]
    async fn stock(&self) -> String {
        String::new()
    }
}

/// A box whose methods declare no scopes: its `ToolBox::scopes` is the trait's default.
struct Plain;

#[toolbox]
impl Plain {
    /// Needs nothing.
    #[tool]
    async fn ping_tool(&self) -> String {
        String::new()
    }
}

/// A prompt that needs a scope.
#[prompt(scopes = ["prompts:use"])]
async fn greeting() -> String {
    String::new()
}

/// A prompt that needs none.
#[prompt]
async fn farewell() -> String {
    String::new()
}

/// A fixed resource.
#[resource("books://catalogue", scopes = ["books:read"])]
async fn catalogue() -> ResourceContents {
    ResourceContents::text("books://catalogue", "text/plain", "")
}

/// A template: the scopes apply to every URI it serves.
#[resource("books://item/{isbn}", scopes = ["books:read", "books:detail"])]
async fn book(isbn: String) -> ResourceContents {
    ResourceContents::text(format!("books://item/{isbn}"), "text/plain", "")
}

/// A resource that needs none.
#[resource("books://about")]
async fn about() -> ResourceContents {
    ResourceContents::text("books://about", "text/plain", "")
}

fn names(scopes: &[Scope]) -> Vec<&str> {
    scopes.iter().map(Scope::as_str).collect()
}

#[test]
fn each_item_declares_the_scopes_its_attribute_lists() {
    assert_eq!(names(<open as ToolHandler>::SCOPES), Vec::<&str>::new());
    assert_eq!(
        names(<order_book as ToolHandler>::SCOPES),
        ["orders:write", "books:read"]
    );
    assert_eq!(
        names(<odd_scopes as ToolHandler>::SCOPES),
        ["!#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~", "a", "raw"]
    );
    assert_eq!(names(<greeting as PromptHandler>::SCOPES), ["prompts:use"]);
    assert_eq!(
        names(<farewell as PromptHandler>::SCOPES),
        Vec::<&str>::new()
    );
    assert_eq!(
        names(<catalogue as ResourceHandler>::SCOPES),
        ["books:read"]
    );
    assert_eq!(
        names(<book as ResourceHandler>::SCOPES),
        ["books:read", "books:detail"]
    );
    assert_eq!(
        names(<about as ResourceHandler>::SCOPES),
        Vec::<&str>::new()
    );
}

#[test]
fn a_toolbox_answers_the_scopes_of_each_tool_by_its_listed_name() {
    assert_eq!(names(Shop.scopes("refund")), ["orders:write", "payments"]);
    assert_eq!(names(Shop.scopes("stock")), ["books:read"]);
    assert_eq!(names(Shop.scopes("browse")), Vec::<&str>::new());
    // The method's own name is not the tool's: nothing is declared under it.
    assert_eq!(names(Shop.scopes("refund_method")), Vec::<&str>::new());
    assert_eq!(names(Shop.scopes("nope")), Vec::<&str>::new());
    assert_eq!(names(Plain.scopes("ping_tool")), Vec::<&str>::new());
    // A `tools![..]` set answers from `ToolHandler::SCOPES`.
    let set = tools![open, order_book];
    assert_eq!(
        names(set.scopes("order_book")),
        ["orders:write", "books:read"]
    );
    assert_eq!(names(set.scopes("open")), Vec::<&str>::new());
}

fn router() -> Router {
    Router::new(ServerInfo::new("scopes", "1"))
        .tools(tools![open, order_book, odd_scopes])
        .tools(Shop)
        .tools(Plain)
        .prompts(prompts![farewell, greeting])
        .resources(resources![about, catalogue, book])
}

#[test]
fn a_router_answers_each_targets_scopes() {
    let router = router();
    assert_eq!(
        names(&router.tool_scopes("order_book")),
        ["orders:write", "books:read"]
    );
    assert_eq!(
        names(&router.tool_scopes("refund")),
        ["orders:write", "payments"]
    );
    assert_eq!(names(&router.tool_scopes("open")), Vec::<&str>::new());
    assert_eq!(names(&router.tool_scopes("ping_tool")), Vec::<&str>::new());
    assert_eq!(names(&router.tool_scopes("unknown")), Vec::<&str>::new());
    assert_eq!(names(&router.prompt_scopes("greeting")), ["prompts:use"]);
    assert_eq!(names(&router.prompt_scopes("farewell")), Vec::<&str>::new());
    assert_eq!(
        names(&router.resource_scopes("books://catalogue")),
        ["books:read"]
    );
    assert_eq!(
        names(&router.resource_scopes("books://item/978-0")),
        ["books:read", "books:detail"]
    );
    assert_eq!(
        names(&router.resource_scopes("books://about")),
        Vec::<&str>::new()
    );
}

#[test]
fn a_router_declares_every_scope_once_in_declaration_order() {
    assert_eq!(
        names(&router().declared_scopes()),
        [
            "orders:write",
            "books:read",
            "!#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~",
            "a",
            "raw",
            "payments",
            "prompts:use",
            "books:detail",
        ]
    );
    let none = Router::new(ServerInfo::new("none", "1")).tools(tools![open]);
    assert_eq!(none.declared_scopes(), Vec::<Scope>::new());
}
