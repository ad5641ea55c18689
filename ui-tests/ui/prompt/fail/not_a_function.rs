#[rondo_mcp::prompt]
const GREETING: &str = "hello";

fn main() {}
