#[rondo_mcp::toolbox]
struct Shop;

fn main() {}
