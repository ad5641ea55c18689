use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Person {
    #[elicit(default = 42)]
    name: String,
}

fn main() {}
