//! `stdio-greeter`: a Rondo MCP server on stdin/stdout, written by hand against
//! [`rondo_mcp::Handler`] (no macros).
//!
//! - `shout` upper-cases its `text` argument (one round).
//! - `greet` asks the user for their name and greets them. At 2026-07-28 the first call answers
//!   an `InputRequiredResult` and the client calls again with the answer; at 2025-11-25 the
//!   server sends a real `elicitation/create` request on stdout and awaits the response on
//!   stdin. The handler code is the same for both.
//!
//! Logs go to stderr (`RUST_LOG` filters them; default `info`); stdout carries MCP messages only.
//! A fleet of instances shares its state keys through `RONDO_STATE_KEYS`
//! (`id:base64url-secret[,...]`, see [`KeyRing::parse`]); without it each process uses a random
//! key, which is right for one process.
//!
//! ```sh
//! cargo run -p stdio-greeter
//! ```

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{ElicitAction, ElicitRequest, JsonObject};
use rondo_mcp::state::KeyRing;
use serde_json::json;
use tracing_subscriber::EnvFilter;

/// The greeter.
struct Greeter;

fn name_form() -> ElicitRequest {
    let schema = json!({
        "type": "object",
        "properties": {"name": {"type": "string", "title": "Your name"}},
        "required": ["name"],
    });
    ElicitRequest::Form {
        message: "What is your name?".into(),
        requested_schema: schema.as_object().cloned().unwrap_or_default(),
    }
}

impl Handler for Greeter {
    fn info(&self) -> ServerInfo {
        ServerInfo::new("stdio-greeter", env!("CARGO_PKG_VERSION"))
            .instructions("`shout` upper-cases text; `greet` asks the user for their name.")
            .with_tools()
    }

    async fn list_tools(&self, _cx: &Cx, _cursor: Option<&Cursor>) -> Result<Page<Tool>, Error> {
        let text = json!({
            "type": "object",
            "properties": {"text": {"type": "string", "description": "What to shout"}},
            "required": ["text"],
        });
        Ok(vec![
            Tool::new(
                "shout",
                "Upper-cases the text",
                text.as_object().cloned().unwrap_or_default(),
            ),
            Tool::new(
                "greet",
                "Asks the user for their name and greets them",
                Tool::no_arguments(),
            ),
        ]
        .into())
    }

    async fn call_tool(
        &self,
        cx: &Cx,
        name: &str,
        args: &JsonObject,
    ) -> Result<CallToolResult, Error> {
        match name {
            "shout" => match args.get("text").and_then(|t| t.as_str()) {
                Some(text) => Ok(CallToolResult::text(text.to_uppercase())),
                None => Ok(CallToolResult::error("`text` must be a string")),
            },
            "greet" => {
                // Decline and cancel are ordinary answers; a client that cannot elicit gets a
                // greeting anyway.
                let text = match cx.elicit("user_name", name_form()).await {
                    Ok(r) if r.action == ElicitAction::Accept => {
                        let name = r
                            .content
                            .as_ref()
                            .and_then(|c| c.get("name"))
                            .and_then(|n| n.as_str())
                            .filter(|n| !n.trim().is_empty());
                        match name {
                            Some(n) => format!("Hello, {n}!"),
                            None => "Hello, whoever you are!".to_owned(),
                        }
                    }
                    Ok(_) => "Hello, stranger!".to_owned(),
                    Err(why) => {
                        tracing::info!(%why, "cannot ask for a name");
                        "Hello!".to_owned()
                    }
                };
                tracing::info!(round = cx.round(), "greeted");
                Ok(CallToolResult::text(text))
            }
            other => Err(Error::unknown_tool(other)),
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    let mut server = Server::new(Greeter);
    if let Some(keys) = KeyRing::from_env("RONDO_STATE_KEYS").map_err(std::io::Error::other)? {
        server = server.state_keys(keys);
    }
    tracing::info!("stdio-greeter serving stdin/stdout");
    let served = server.serve_stdio().await;
    tracing::info!("stdin closed; exiting");
    served
}
