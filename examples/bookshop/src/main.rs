//! A bookshop MCP server whose `order_book` tool asks the user to confirm.
//!
//! ```text
//! bookshop              serve MCP over stdin/stdout (point an MCP client at this command)
//! bookshop --http ADDR  serve Streamable HTTP on ADDR (default 127.0.0.1:3000), path /mcp;
//!                       SIGTERM or ctrl-c stops accepting and drains the requests in flight
//! bookshop demo         run this server as a child process and drive one order through it,
//!                       once as a 2026-07-28 client and once as a 2025-11-25 client
//! ```
//!
//! Environment: `RONDO_STATE_KEYS` (the key ring a fleet shares, `id:secret,...`, the first
//! entry seals) and `BOOKSHOP_ALLOWED_HOSTS` (comma-separated `Host` names to accept besides
//! the local ones, e.g. the name clients use behind a load balancer).

mod demo;

use rondo_example_bookshop::router;
use rondo_mcp::http::HttpConfig;
use rondo_mcp::prelude::*;
use std::net::SocketAddr;

fn server() -> Server<Router> {
    let keys = match rondo_mcp::state::KeyRing::from_env("RONDO_STATE_KEYS") {
        Ok(keys) => keys,
        Err(e) => {
            eprintln!("RONDO_STATE_KEYS: {e}");
            std::process::exit(2);
        }
    };
    let server = Server::new(router());
    match keys {
        Some(k) => server.state_keys(k),
        None => server,
    }
}

/// The HTTP settings: the defaults, plus the `Host` names in `BOOKSHOP_ALLOWED_HOSTS`.
fn http_config() -> HttpConfig {
    let hosts = std::env::var("BOOKSHOP_ALLOWED_HOSTS").unwrap_or_default();
    hosts
        .split(',')
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .fold(HttpConfig::default(), HttpConfig::allow_host)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => server().serve_stdio().await?,
        Some("--http") => {
            let addr: SocketAddr = args
                .get(1)
                .map(|a| a.parse())
                .transpose()?
                .unwrap_or(([127, 0, 0, 1], 3000).into());
            let service = server().into_http(http_config());
            let listener = tokio::net::TcpListener::bind(addr).await?;
            eprintln!("bookshop: MCP endpoint http://{addr}/mcp");
            rondo_mcp::http::serve_listener(service, listener, rondo_mcp::http::shutdown_signal())
                .await?;
        }
        Some("demo") => demo::run().await?,
        Some(other) => {
            eprintln!("unknown argument `{other}`; usage: bookshop [--http ADDR | demo]");
            std::process::exit(2);
        }
    }
    Ok(())
}
