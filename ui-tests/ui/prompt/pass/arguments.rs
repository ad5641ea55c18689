//! Prompt arguments: required, optional, described, renamed; a context; sync and async.

use rondo_mcp::prelude::*;

/// Reviews code.
#[rondo_mcp::prompt(name = "code.review", title = "Code review")]
async fn review(
    cx: &Cx,
    #[arg(description = "The code")] code: String,
    #[arg(rename = "focusArea")] focus: Option<String>,
) -> Result<String, Error> {
    let _ = cx.revision();
    Ok(format!("Review {code} for {}", focus.unwrap_or_default()))
}

/// Says hello.
#[rondo_mcp::prompt]
fn hello() -> Vec<PromptMessage> {
    vec![PromptMessage::user(Content::text("hello"))]
}

fn main() {
    let _ = Router::new(ServerInfo::new("prompts", "1.0.0"))
        .prompts(rondo_mcp::prompts![review, hello]);
}
