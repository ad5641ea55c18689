use rondo_mcp::{Roots, roots};

#[roots(fallback = given_folders)]
fn workspace(folders: &[String]) -> Roots;

fn given_folders(folders: &[String]) -> Vec<String> {
    folders.to_vec()
}

fn main() {}
