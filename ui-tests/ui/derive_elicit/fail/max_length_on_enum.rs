use rondo_mcp::Elicit;

#[derive(Elicit)]
enum Size {
    Small,
    Large,
}

#[derive(Elicit)]
struct Order {
    #[elicit(max_length = 5)]
    size: Size,
}

fn main() {}
