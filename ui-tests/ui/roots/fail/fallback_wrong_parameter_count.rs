use rondo_mcp::{Roots, roots};

#[roots(fallback = given_folders)]
fn workspace(folders: &[String]) -> Roots;

fn given_folders() -> Roots {
    Roots::from_paths(["/srv/data"])
}

fn main() {}
