use rondo_mcp::{Roots, roots};

#[roots(fallback = refuse)]
fn workspace((home, work): (&str, &str)) -> Roots;

fn main() {}
