use rondo_mcp::{Roots, roots};

#[roots(fallback = refuse)]
fn workspace(folders: &[String]) -> Roots {
    Roots::from_paths(folders)
}

fn main() {}
