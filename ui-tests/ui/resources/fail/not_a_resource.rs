use rondo_mcp::prelude::*;

fn welcome() -> ResourceContents {
    ResourceContents::text("note://welcome", "text/plain", "Welcome!")
}

fn main() {
    let _ = rondo_mcp::resources![welcome];
}
