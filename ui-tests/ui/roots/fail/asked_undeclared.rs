use rondo_mcp::prelude::*;
use rondo_mcp::{roots, tool};

/// The client's roots.
#[roots(fallback = refuse)]
fn workspace() -> Roots;

/// Lists the folders it would search.
#[tool]
async fn search_folders(cx: &Cx) -> String {
    format!("{:?}", cx.ask(workspace()).await.paths())
}

fn main() {}
