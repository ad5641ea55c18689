use rondo_mcp::Elicit;

#[derive(Elicit)]
#[elicit(crate = rondo_mcp)]
struct Person {
    name: String,
}

fn main() {}
