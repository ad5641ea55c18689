use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Tags {
    tags: Vec<String>,
}

fn main() {}
