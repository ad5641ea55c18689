use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Login {
    username: String,
    password: String,
}

fn main() {}
