use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Answer<T> {
    value: T,
}

fn main() {}
