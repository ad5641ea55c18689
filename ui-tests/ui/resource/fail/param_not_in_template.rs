use rondo_mcp::prelude::*;

/// A note.
#[rondo_mcp::resource("note://items/{id}")]
async fn item(name: String) -> ResourceContents {
    ResourceContents::text("note://items", "text/plain", name)
}

fn main() {
    let _ = rondo_mcp::resources![item];
}
