use rondo_mcp::{Roots, roots};

#[roots(fallbak = refuse)]
fn workspace() -> Roots;

fn main() {}
