use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Upload {
    path: std::path::PathBuf,
}

fn main() {}
