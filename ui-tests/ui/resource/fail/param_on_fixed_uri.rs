use rondo_mcp::prelude::*;

/// A note.
#[rondo_mcp::resource("note://welcome")]
async fn welcome(id: String) -> ResourceContents {
    ResourceContents::text("note://welcome", "text/plain", id)
}

fn main() {
    let _ = rondo_mcp::resources![welcome];
}
