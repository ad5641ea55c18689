use rondo_mcp::{Roots, roots};

#[roots(fallback = arg)]
fn workspace(folders: &[String]) -> Roots;

fn main() {}
