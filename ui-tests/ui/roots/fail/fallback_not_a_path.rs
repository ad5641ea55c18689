use rondo_mcp::{Roots, roots};

#[roots(fallback = "refuse")]
fn workspace() -> Roots;

fn main() {}
