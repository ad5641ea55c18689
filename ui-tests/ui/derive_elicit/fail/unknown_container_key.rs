use rondo_mcp::Elicit;

#[derive(Elicit)]
#[elicit(rename = "person")]
struct Person {
    name: String,
}

fn main() {}
