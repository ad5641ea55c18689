//! The suite's prompts.

use crate::content::PNG;
use rondo_mcp::prelude::*;
use rondo_mcp::{PromptSet, prompt, prompts};

/// A simple prompt without arguments.
#[prompt]
async fn test_simple_prompt() -> String {
    "This is a simple prompt for testing.".into()
}

/// A prompt with two required arguments.
#[prompt]
async fn test_prompt_with_arguments(
    #[arg(description = "First test argument")] arg1: String,
    #[arg(description = "Second test argument")] arg2: String,
) -> String {
    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")
}

/// A prompt that embeds a resource.
#[prompt]
async fn test_prompt_with_embedded_resource(
    #[arg(rename = "resourceUri", description = "URI of the resource to embed")]
    resource_uri: String,
) -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Content::resource(ResourceContents::text(
            resource_uri,
            "text/plain",
            "Embedded resource content for testing.",
        ))),
        PromptMessage::user(Content::text("Please process the embedded resource above.")),
    ]
}

/// A prompt with an image.
#[prompt]
async fn test_prompt_with_image() -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Content::image(PNG, "image/png")),
        PromptMessage::user(Content::text("Please analyze the image above.")),
    ]
}

/// Every prompt of this example.
pub fn all() -> PromptSet {
    prompts![
        test_simple_prompt,
        test_prompt_with_arguments,
        test_prompt_with_embedded_resource,
        test_prompt_with_image
    ]
}
