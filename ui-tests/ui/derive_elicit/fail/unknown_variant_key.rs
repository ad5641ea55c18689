use rondo_mcp::Elicit;

#[derive(Elicit)]
enum Size {
    #[elicit(tilte = "Small")]
    Small,
    Large,
}

fn main() {}
