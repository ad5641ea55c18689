//! The question is still declared and asked without a second error.

use rondo_mcp::prelude::*;
use rondo_mcp::{roots, tool};

#[roots(fallback = refuse)]
fn workspace(folders: &[String]) -> Roots {
    Roots::from_paths(folders)
}

/// Lists the folders it would search.
#[tool(asks = [workspace])]
async fn search_folders(cx: &Cx, folders: Vec<String>) -> String {
    format!("{:?}", cx.ask(workspace(&folders)).await.paths())
}

fn main() {
    let _ = rondo_mcp::tools![search_folders];
}
