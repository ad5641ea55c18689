use rondo_mcp::{Sample, roots};

#[roots(fallback = refuse)]
fn workspace() -> Sample;

fn main() {}
