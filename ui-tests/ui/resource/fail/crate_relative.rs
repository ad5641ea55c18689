use rondo_mcp::prelude::*;

/// A note.
#[rondo_mcp::resource("note://welcome", crate = rondo_mcp)]
async fn welcome() -> ResourceContents {
    ResourceContents::text("note://welcome", "text/plain", "hi")
}

fn main() {
    let _ = rondo_mcp::resources![welcome];
}
