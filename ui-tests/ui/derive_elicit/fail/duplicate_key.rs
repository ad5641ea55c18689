use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Person {
    #[elicit(title = "Name")]
    #[elicit(title = "Your name")]
    name: String,
}

fn main() {}
