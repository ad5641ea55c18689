//! The suite's resources.

use crate::content::PNG;
use rondo_mcp::prelude::*;
use rondo_mcp::{ResourceSet, resource, resources};

/// A static text resource.
#[resource(
    "test://static-text",
    name = "Static Text Resource",
    mime_type = "text/plain"
)]
async fn static_text() -> ResourceContents {
    ResourceContents::text(
        "test://static-text",
        "text/plain",
        "This is the content of the static text resource.",
    )
}

/// A static binary resource.
#[resource(
    "test://static-binary",
    name = "Static Binary Resource",
    mime_type = "image/png"
)]
async fn static_binary() -> ResourceContents {
    ResourceContents::blob("test://static-binary", "image/png", PNG)
}

/// A resource that can be subscribed to.
#[resource(
    "test://watched-resource",
    name = "Watched Resource",
    mime_type = "text/plain"
)]
async fn watched() -> ResourceContents {
    ResourceContents::text(
        "test://watched-resource",
        "text/plain",
        "Watched resource content",
    )
}

/// A templated resource with an id.
#[resource(
    "test://template/{id}/data",
    name = "Resource Template",
    mime_type = "application/json"
)]
async fn template(id: String) -> ResourceContents {
    let body =
        serde_json::json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
    ResourceContents::text(
        format!("test://template/{id}/data"),
        "application/json",
        body.to_string(),
    )
}

/// Every resource of this example.
pub fn all() -> ResourceSet {
    resources![static_text, static_binary, watched, template]
}
