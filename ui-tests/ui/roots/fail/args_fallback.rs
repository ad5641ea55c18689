use rondo_mcp::{Roots, roots};

#[roots(fallback = args)]
fn workspace() -> Roots;

fn main() {}
