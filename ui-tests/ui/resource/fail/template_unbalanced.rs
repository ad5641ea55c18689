use rondo_mcp::prelude::*;

/// A note.
#[rondo_mcp::resource("note://items/id}")]
async fn item() -> ResourceContents {
    ResourceContents::text("note://items", "text/plain", "hi")
}

fn main() {
    let _ = rondo_mcp::resources![item];
}
