use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Note {
    #[elicit(not_consent)]
    text: String,
}

fn main() {}
