//! A one-tool MCP server over stdio, with Rondo: what `bench/build.sh` builds.

use rondo_mcp::prelude::*;
use rondo_mcp::{tool, tools};

/// Adds two integers.
#[tool(read_only_hint = true)]
async fn add(a: i64, b: i64) -> i64 {
    a + b + 0 // BUILD-COST-EDIT: build.sh changes this constant to time an incremental rebuild
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let router = Router::new(ServerInfo::new("rondo-one", "0.0.0")).tools(tools![add]);
    Server::new(router).serve_stdio().await
}
