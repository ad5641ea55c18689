use rondo_mcp::Elicit;

#[derive(Elicit)]
enum Payment {
    Cash,
    Card { last_digits: String },
}

fn main() {}
