use rondo_mcp::{Roots, roots};

#[roots(fallback = given_folders)]
fn workspace(folders: &[String]) -> Roots;

fn given_folders(folder: &str) -> Roots {
    Roots::from_paths([folder])
}

fn main() {}
