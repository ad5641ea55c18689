//! Raw identifiers: the wire names drop the `r#`.

/// Matches a value against a type.
#[rondo_mcp::tool]
async fn r#match(r#type: String, #[arg(rename = "r#in")] r#in: Option<String>) -> String {
    format!("{type}{}", r#in.unwrap_or_default(), type = r#type)
}

fn main() {
    let _ = rondo_mcp::tools![r#match];
}
