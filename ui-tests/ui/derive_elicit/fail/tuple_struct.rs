use rondo_mcp::Elicit;

#[derive(Elicit)]
struct Pair(String, u32);

fn main() {}
