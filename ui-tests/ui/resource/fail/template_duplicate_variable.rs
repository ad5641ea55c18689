use rondo_mcp::prelude::*;

/// A note.
#[rondo_mcp::resource("note://items/{id}/{id}")]
async fn item(id: String) -> ResourceContents {
    ResourceContents::text("note://items", "text/plain", id)
}

fn main() {
    let _ = rondo_mcp::resources![item];
}
