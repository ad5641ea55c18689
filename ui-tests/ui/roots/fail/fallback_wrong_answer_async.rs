use rondo_mcp::{Roots, roots};

#[roots(fallback = configured_folders)]
fn workspace() -> Roots;

async fn configured_folders() -> Vec<std::path::PathBuf> {
    vec!["/srv/data".into()]
}

fn main() {}
