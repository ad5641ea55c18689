//! The signature cannot be expanded; the question is still declared without a second error.

use rondo_mcp::prelude::*;
use rondo_mcp::{roots, tool};

#[roots(fallback = refuse)]
fn workspace<P: AsRef<std::path::Path>>(folders: &[P]) -> Roots;

/// Lists the folders it would search.
#[tool(asks = [workspace])]
async fn search_folders(cx: &Cx) -> String {
    let _ = cx.revision();
    String::new()
}

fn main() {
    let _ = rondo_mcp::tools![search_folders];
}
