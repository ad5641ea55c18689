use rondo_mcp::prelude::*;

/// A note.
#[rondo_mcp::resource("note://welcome")]
async fn welcome() -> ResourceContents {
    ResourceContents::text("note://welcome", "text/plain", "hi")
}

/// The same note.
#[rondo_mcp::resource("note://welcome", name = "hello")]
async fn hello() -> ResourceContents {
    ResourceContents::text("note://welcome", "text/plain", "hello")
}

fn main() {
    let _ = rondo_mcp::resources![welcome, hello];
}
