use rondo_mcp::{Roots, roots};

struct Config;

impl Config {
    #[roots(fallback = refuse)]
    fn workspace(&self) -> Roots;
}

fn main() {}
