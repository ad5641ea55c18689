use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Party {
    #[elicit(min = 10, max = 2)]
    guests: u32,
}

fn main() {}
