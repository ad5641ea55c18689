use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Person {
    #[elicit(titel = "Your name")]
    name: String,
}

fn main() {}
