use rondo_mcp::{Roots, roots};

#[roots]
fn workspace(folders: &[String]) -> Roots;

fn main() {}
