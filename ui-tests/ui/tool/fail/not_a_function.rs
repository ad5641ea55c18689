#[rondo_mcp::tool]
struct Search;

fn main() {}
