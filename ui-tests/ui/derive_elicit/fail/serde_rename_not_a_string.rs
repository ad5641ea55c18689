use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Person {
    #[serde(rename = 7)]
    name: String,
}

fn main() {}
