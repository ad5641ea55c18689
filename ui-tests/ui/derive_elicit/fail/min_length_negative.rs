use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Person {
    #[elicit(min_length = -1)]
    name: String,
}

fn main() {}
