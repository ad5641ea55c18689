use rondo_mcp::Elicit;

#[derive(Elicit)]
#[allow(non_snake_case)]
struct Setup {
    apiKey: String,
}

fn main() {}
