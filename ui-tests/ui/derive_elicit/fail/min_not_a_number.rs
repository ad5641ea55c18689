use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Party {
    #[elicit(min = "1")]
    guests: u32,
}

fn main() {}
