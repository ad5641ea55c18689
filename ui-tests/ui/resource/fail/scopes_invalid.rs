use rondo_mcp::prelude::ResourceContents;

/// A single string and an empty scope on a resource.
#[rondo_mcp::resource("books://catalogue", scopes = "books:read")]
async fn catalogue() -> ResourceContents {
    ResourceContents::text("books://catalogue", "text/plain", "")
}

/// An empty scope and a duplicate on a template.
#[rondo_mcp::resource("books://item/{isbn}", scopes = ["", "books:read", "books:read"])]
async fn book(isbn: String) -> ResourceContents {
    ResourceContents::text(format!("books://item/{isbn}"), "text/plain", "")
}

fn main() {
    let _ = rondo_mcp::resources![catalogue, book];
}
