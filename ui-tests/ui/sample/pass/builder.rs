//! Every builder method of `Sample`, in a question's rendering.

#![deny(warnings)]

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{ModelPreferences, SamplingMessage, ToolChoice};
use rondo_mcp::{sample, tool};

/// A conversation with every option set.
#[sample(fallback = refuse)]
fn everything_set(photo: &str, recording: &str) -> Sample {
    let lookup = Tool::new("lookup", "Looks a word up", serde_json::Map::new());
    Sample::conversation(vec![SamplingMessage::user_text("Describe these.")])
        .then(SamplingMessage::user_text("Be brief."))
        .image(photo, "image/png")
        .audio(recording, "audio/wav")
        .system("You are a careful describer.")
        .max_tokens(200)
        .temperature(0.2)
        .stop_sequences(["\n\n", "END"])
        .model_preferences(
            ModelPreferences::new()
                .hint("claude")
                .cost(0.3)
                .speed(0.5)
                .intelligence(0.9),
        )
        .tools(vec![lookup])
        .tool_choice(ToolChoice::Required)
}

/// One user message.
#[sample(fallback = refuse)]
fn plain(text: &str) -> Sample {
    let sample = Sample::user(text);
    let _ = sample.request();
    sample
}

/// Describes media.
#[tool(asks = [everything_set, plain])]
async fn describe(cx: &Cx, photo: String, recording: String) -> String {
    let a = cx.ask(everything_set(&photo, &recording)).await;
    a + &cx.ask(plain("hello")).await
}

fn main() {
    let _ = rondo_mcp::tools![describe];
}
