use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Person {
    name: String,
    #[elicit(rename = "name")]
    nickname: String,
}

fn main() {}
