use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Contact {
    #[elicit(format = "email")]
    count: u32,
}

fn main() {}
