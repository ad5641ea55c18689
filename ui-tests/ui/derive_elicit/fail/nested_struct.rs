use rondo_mcp::Elicit;

struct Address {
    street: String,
    city: String,
}

#[derive(Elicit)]
struct Order {
    quantity: u32,
    address: Address,
}

fn main() {}
