use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Person {
    #[elicit(min_length = 5, max_length = 3)]
    name: String,
}

fn main() {}
