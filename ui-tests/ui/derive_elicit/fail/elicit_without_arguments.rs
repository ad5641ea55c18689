use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Person {
    #[elicit]
    name: String,
}

fn main() {}
