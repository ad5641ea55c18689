//! A Rondo router holding N tools, for the per-call cost as the tool count grows: the real
//! `add` (`#[tool]`) and N − 1 generated tools `t1`..`t{N-1}` in a hand-written [`ToolBox`],
//! each with `add`'s input schema under its own name and description, so `tools/list` carries
//! N full definitions.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::JsonObject;
use rondo_mcp::{BoxFuture, ToolBox, ToolHandler, tool, tools};

/// Adds two integers.
#[tool(read_only_hint = true)]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Generated tools `t1`..`t{n-1}`: each answers its own name.
struct Generated {
    defs: Vec<Tool>,
}

impl Generated {
    fn new(count: usize) -> Self {
        let template = <add as ToolHandler>::definition();
        let defs = (1..=count)
            .map(|i| {
                let mut t = template.clone();
                t.name = format!("t{i}");
                t.description = Some(format!("Generated tool number {i}: adds two integers."));
                t
            })
            .collect();
        Generated { defs }
    }
}

impl ToolBox for Generated {
    fn tools(&self) -> Vec<Tool> {
        self.defs.clone()
    }

    fn call<'a>(
        &'a self,
        _cx: &'a Cx,
        name: &'a str,
        _arguments: &'a JsonObject,
    ) -> Option<BoxFuture<'a, Result<CallToolResult, Error>>> {
        self.defs
            .iter()
            .any(|t| t.name == name)
            .then(|| -> BoxFuture<'a, _> {
                Box::pin(async move { Ok(CallToolResult::text(name)) })
            })
    }
}

/// A router with `n` tools in all (`n` ≥ 1): `add` and `t1`..`t{n-1}`.
///
/// `page_size`: the `tools/list` page size (`Router::page_size`). `None` is the whole list on
/// one page.
pub fn router(n: usize, page_size: Option<usize>) -> Router {
    assert!(n >= 1, "the router holds at least `add`");
    let router = Router::new(ServerInfo::new("rondo-bench-many", "0.0.0"))
        .tools(tools![add])
        .tools(Generated::new(n - 1));
    match page_size {
        None => router,
        Some(p) => router.page_size(p),
    }
}

/// The server for [`router`] (defaults otherwise).
pub fn server(n: usize, page_size: Option<usize>) -> Server<Router> {
    Server::new(router(n, page_size))
}

/// A 2026-07-28 `tools/list` request line, with `cursor` when following a page.
pub fn list_line(caps: &str, id: u64, cursor: Option<&str>) -> String {
    let cursor = cursor.map_or(String::new(), |c| {
        format!(r#","cursor":{}"#, serde_json::Value::from(c))
    });
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{caps}}}{cursor}}}}}"#
    )
}

/// `tools/list` without a cursor: the first page, checked (`min(size, n)` tools, in order, and
/// a `nextCursor` exactly when more remain).
pub async fn list_first_page<W, R>(c: &mut crate::wire::Client<W, R>, n: usize, size: usize)
where
    W: tokio::io::AsyncWrite + Unpin,
    R: tokio::io::AsyncRead + Unpin,
{
    let id = c.id();
    let answer = c.wire.request(&list_line(c.caps, id, None)).await;
    assert_eq!(answer["id"], id, "{answer}");
    let result = &answer["result"];
    let tools = result["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), size.min(n), "first page of {n} tools");
    assert_eq!(tools[0]["name"], "add");
    assert_eq!(result.get("nextCursor").is_some(), n > size, "{result}");
}

/// Lists every tool, following `nextCursor` from page to page, and checks that exactly `n`
/// tools came, `add` first, each once. Returns the number of pages.
pub async fn list_all<W, R>(c: &mut crate::wire::Client<W, R>, n: usize) -> usize
where
    W: tokio::io::AsyncWrite + Unpin,
    R: tokio::io::AsyncRead + Unpin,
{
    let mut cursor: Option<String> = None;
    let mut seen = 0;
    let mut pages = 0;
    loop {
        let id = c.id();
        let answer = c
            .wire
            .request(&list_line(c.caps, id, cursor.as_deref()))
            .await;
        assert_eq!(answer["id"], id, "{answer}");
        let result = &answer["result"];
        let tools = result["tools"].as_array().expect("tools");
        for (i, t) in tools.iter().enumerate() {
            let want = match seen + i {
                0 => "add".to_owned(),
                k => format!("t{k}"),
            };
            assert_eq!(t["name"], want.as_str(), "tool {} of {n}", seen + i);
        }
        seen += tools.len();
        pages += 1;
        match result.get("nextCursor").and_then(|v| v.as_str()) {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
        assert!(pages <= n, "more pages than tools");
    }
    assert_eq!(seen, n, "listed {seen} of {n} tools");
    pages
}
