#[rondo_mcp::resource("note://welcome")]
static WELCOME: &str = "hi";

fn main() {}
