use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Contact {
    #[elicit(format = "e-mail")]
    address: String,
}

fn main() {}
