use rondo_mcp::roots;

#[roots(fallback = refuse)]
struct Workspace {
    folders: Vec<String>,
}

fn main() {}
