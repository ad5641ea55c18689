use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Person {
    #[elicit(min = 1)]
    name: String,
}

fn main() {}
