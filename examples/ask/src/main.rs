//! `ask`: one tool that asks the user one question, with its fallback.
//!
//! `sign` signs a guestbook. It asks the user's name in a form. A client that cannot show
//! forms gets the fallback: the entry is signed "anonymous". The same code serves 2026-07-28
//! (the question travels in an `InputRequiredResult`) and 2025-11-25 (a real
//! `elicitation/create` request).
//!
//! ```text
//! cargo run -p rondo-example-ask                             # stdin/stdout
//! cargo run -p rondo-example-ask -- --http 127.0.0.1:3000    # http://127.0.0.1:3000/mcp
//! ```

use clap::Parser;
use rondo_mcp::prelude::*;
use rondo_mcp::{Answer, Elicit, Form, elicit, tool, tools};
use std::net::SocketAddr;

/// The form the user fills in.
#[derive(Elicit)]
struct Signature {
    /// Your name, as the guestbook shows it
    name: String,
}

/// The question: who signs this message?
#[elicit(form, fallback = anonymous)]
fn who_signs(message: &str) -> Form<Signature> {
    Form::new(format!("Sign the guestbook with \"{message}\"?"))
}

/// The fallback, for a client that cannot show forms. Same inputs, same answer type.
fn anonymous(_message: &str) -> Answer<Signature> {
    Answer::Accept(Signature {
        name: "anonymous".into(),
    })
}

/// Signs the guestbook with a message. Asks the user for their name.
#[tool(asks = [who_signs])]
async fn sign(cx: &Cx, message: String) -> String {
    match cx.ask(who_signs(&message)).await {
        Answer::Accept(s) => format!("{} signed: {message}", s.name),
        Answer::Decline | Answer::Cancel => "Not signed: the user said no.".into(),
    }
}

/// A guestbook server with one tool, `sign`, that asks the user's name.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Serve Streamable HTTP on this address (path /mcp) instead of stdin/stdout.
    #[arg(long, value_name = "ADDR", env = "ASK_HTTP")]
    http: Option<SocketAddr>,
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let args = Args::parse();
    // Logs go to stderr: on stdio, stdout carries the protocol.
    // RUST_LOG=rondo::question=debug shows each question and the fallbacks taken.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .init();
    let router = Router::new(ServerInfo::new("guestbook", "1.0.0")).tools(tools![sign]);
    let server = Server::new(router);
    match args.http {
        None => server.serve_stdio().await,
        Some(addr) => {
            eprintln!("ask: MCP endpoint http://{addr}/mcp");
            let ctrl_c = async {
                let _ = tokio::signal::ctrl_c().await;
            };
            rondo_mcp::http::serve(server, addr, ctrl_c).await
        }
    }
}
