//! A fixed resource and templates with context and several variables.

use rondo_mcp::prelude::*;

/// The welcome note.
#[rondo_mcp::resource("note://welcome", title = "Welcome", mime_type = "text/plain")]
fn welcome() -> ResourceContents {
    ResourceContents::text("note://welcome", "text/plain", "hi")
}

/// A page of a book.
#[rondo_mcp::resource("book://{book_id}/pages/{page}", name = "page")]
async fn page(cx: &Cx, book_id: String, page: u32) -> Result<Vec<ResourceContents>, Error> {
    let _ = cx.revision();
    Ok(vec![ResourceContents::text(
        format!("book://{book_id}/pages/{page}"),
        "text/plain",
        "…",
    )])
}

/// An item with a renamed variable.
#[rondo_mcp::resource("item://{itemId}")]
async fn item(#[arg(rename = "itemId")] id: String) -> ResourceContents {
    ResourceContents::text(format!("item://{id}"), "text/plain", id)
}

fn main() {
    let _ = Router::new(ServerInfo::new("resources", "1.0.0"))
        .resources(rondo_mcp::resources![welcome, page, item]);
}
