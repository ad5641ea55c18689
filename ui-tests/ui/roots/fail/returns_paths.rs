use rondo_mcp::roots;

#[roots(fallback = refuse)]
fn workspace() -> Vec<std::path::PathBuf>;

fn main() {}
