use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Tags {
    #[elicit(min_items = 1)]
    tags: String,
}

fn main() {}
