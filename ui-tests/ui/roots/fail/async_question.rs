use rondo_mcp::{Roots, roots};

#[roots(fallback = refuse)]
async fn workspace() -> Roots;

fn main() {}
