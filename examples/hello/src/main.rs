//! `hello`: the README's first server, runnable. Two tools, on stdio or Streamable HTTP.
//!
//! ```text
//! cargo run -p rondo-example-hello                             # stdin/stdout
//! cargo run -p rondo-example-hello -- --http 127.0.0.1:3000    # http://127.0.0.1:3000/mcp
//! ```

use clap::Parser;
use rondo_mcp::prelude::*;
use rondo_mcp::{Json, tool, tools};
use std::net::SocketAddr;

/// Adds two integers.
#[tool(read_only_hint = true)]
async fn add(#[arg(description = "The first term")] a: i64, b: i64) -> i64 {
    a + b
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Forecast {
    city: String,
    celsius: f32,
}

/// Today's forecast for a city.
#[tool]
async fn forecast(city: String) -> Result<Json<Forecast>, String> {
    if city.is_empty() {
        return Err("name a city".into()); // an `isError: true` result the model can read
    }
    let forecast = Forecast {
        city,
        celsius: 21.5,
    };
    Ok(Json(forecast)) // structuredContent + outputSchema
}

/// A weather server with two tools: `add` and `forecast`.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Serve Streamable HTTP on this address (path /mcp) instead of stdin/stdout.
    #[arg(long, value_name = "ADDR", env = "HELLO_HTTP")]
    http: Option<SocketAddr>,
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let args = Args::parse();
    // Logs go to stderr: on stdio, stdout carries the protocol. RUST_LOG picks what shows.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .init();
    let router = Router::new(ServerInfo::new("weather", "1.0.0")).tools(tools![add, forecast]);
    let server = Server::new(router);
    match args.http {
        None => server.serve_stdio().await,
        Some(addr) => {
            eprintln!("hello: MCP endpoint http://{addr}/mcp");
            let ctrl_c = async {
                let _ = tokio::signal::ctrl_c().await;
            };
            rondo_mcp::http::serve(server, addr, ctrl_c).await
        }
    }
}
