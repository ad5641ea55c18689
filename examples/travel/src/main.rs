//! The travel-booking MCP server.
//!
//! ```text
//! travel              serve MCP over stdin/stdout (point an MCP client at this command)
//! travel --http ADDR  serve Streamable HTTP on ADDR (default 127.0.0.1:3000), path /mcp,
//!                     and the HTTP+SSE transport of 2024-11-05 clients at /sse
//!                     (add `--metrics ADDR` to serve the question figures for Prometheus
//!                     on ADDR, path /metrics)
//! travel demo         run this server as a child process and drive its richest flows through
//!                     it, as a 2026-07-28 client and as a 2025-11-25 client
//!
//! --redis URL         (with either way of serving) share the replay guard, the decisions'
//!                     ledger and the tasks with every instance on that Redis
//!                     (RONDO_REDIS_URL says the same)
//! ```
//!
//! Configuration (environment): `TRAVEL_FLIGHT_FALLBACK` (`rank`, `provider`, `host`),
//! `TRAVEL_MODEL_PROVIDER` (`fake`, `http://..`, or a command), `TRAVEL_WORKSPACE`,
//! `TRAVEL_PAYMENT_ADDR` (the payment page, default `127.0.0.1:0`), `RONDO_STATE_KEYS`,
//! `RONDO_REDIS_URL`.

mod demo;

use rondo_example_travel::{Config, start};
use rondo_mcp::prelude::*;
use std::net::SocketAddr;

/// The server, configured from the environment, its shared state on the Redis of `--redis URL`
/// or `RONDO_REDIS_URL`. A configuration that does not read, or a Redis that cannot be reached,
/// ends the process with one line (the URL without its secrets) and status 2.
async fn server(redis: Option<&str>) -> Result<Server<Router>, Box<dyn std::error::Error>> {
    let mut config = Config::from_env().unwrap_or_else(|e| {
        eprintln!("travel: configuration: {e}");
        std::process::exit(2);
    });
    let shared = match redis {
        Some(url) => rondo_mcp::shared::Redis::connect(url).await.map(Some),
        None => rondo_mcp::shared::Redis::from_env("RONDO_REDIS_URL").await,
    };
    config.shared = shared.unwrap_or_else(|e| {
        eprintln!("travel: {e}");
        std::process::exit(2);
    });
    let (server, travel) = start(config).await?;
    eprintln!(
        "travel: payment page at {}/pay/ (each payment gets a link of its own)",
        travel.page
    );
    Ok(server)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let redis = match args.iter().position(|a| a == "--redis") {
        Some(i) if i + 1 < args.len() => {
            let url = args.remove(i + 1);
            args.remove(i);
            Some(url)
        }
        Some(_) => return Err("--redis needs a URL, such as redis://127.0.0.1:6379/0".into()),
        None => None,
    };
    let redis = redis.as_deref();
    match args.first().map(String::as_str) {
        None => server(redis).await?.serve_stdio().await?,
        Some("--http") => {
            let addr: SocketAddr = match args.get(1) {
                Some(a) if a != "--metrics" => a.parse()?,
                _ => ([127, 0, 0, 1], 3000).into(),
            };
            if let Some(i) = args.iter().position(|a| a == "--metrics") {
                let metrics: SocketAddr = args
                    .get(i + 1)
                    .ok_or("--metrics needs an address, such as 127.0.0.1:9464")?
                    .parse()?;
                rondo_example_travel::metrics::serve(metrics)?;
                eprintln!("travel: question metrics at http://{metrics}/metrics");
            }
            let server = server(redis).await?;
            eprintln!(
                "travel: MCP endpoint http://{addr}/mcp (2024-11-05 clients: http://{addr}/sse)"
            );
            let shutdown = async {
                let _ = tokio::signal::ctrl_c().await;
            };
            rondo_mcp::http::serve(server, addr, shutdown).await?;
        }
        Some("demo") => {
            if let Err(e) = demo::run().await {
                eprintln!("\n{e}");
                std::process::exit(1);
            }
        }
        Some(other) => {
            eprintln!(
                "unknown argument `{other}`; usage: travel [--http [ADDR] [--metrics ADDR] | demo] [--redis URL]"
            );
            std::process::exit(2);
        }
    }
    Ok(())
}
