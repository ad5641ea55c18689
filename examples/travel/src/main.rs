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
//!                     (RONDO_REDIS_URL says the same; `rediss://` for TLS)
//! --redis-ca PATH     verify a rediss:// Redis with these CA certificates (PEM)
//!                     (RONDO_REDIS_CA says the same)
//! --otlp              export every request's span over OTLP/HTTP (protobuf) to the endpoint
//!                     of OTEL_EXPORTER_OTLP_ENDPOINT, or http://localhost:4318; setting that
//!                     variable (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) alone turns it on
//! ```
//!
//! Configuration (environment): `TRAVEL_FLIGHT_FALLBACK` (`rank`, `provider`, `host`),
//! `TRAVEL_MODEL_PROVIDER` (`fake`, `http://..`, or a command), `TRAVEL_WORKSPACE`,
//! `TRAVEL_PAYMENT_ADDR` (the payment page, default `127.0.0.1:0`), `RONDO_STATE_KEYS`, the
//! `RONDO_REDIS_*` variables of `rondo_mcp::shared::RedisConfig` (one Redis, Sentinel or
//! Cluster, TLS files).

mod demo;

use rondo_example_travel::{Config, start};
use rondo_mcp::otel::{Otlp, OtlpError};
use rondo_mcp::prelude::*;
use rondo_mcp::shared::{Redis, RedisConfig};
use std::net::SocketAddr;
use tracing_subscriber::filter::LevelFilter;

/// The server, configured from the environment, its shared state on the Redis of `--redis URL`
/// or the `RONDO_REDIS_*` variables. A configuration that does not read, or a Redis that
/// cannot be reached, ends the process with one line (where, without secrets) and status 2.
async fn server(redis: Option<&RedisConfig>) -> Result<Server<Router>, Box<dyn std::error::Error>> {
    let mut config = Config::from_env().unwrap_or_else(|e| {
        eprintln!("travel: configuration: {e}");
        std::process::exit(2);
    });
    if let Some(redis) = redis {
        config.shared = Some(Redis::open(redis).await.unwrap_or_else(|e| {
            eprintln!("travel: {e}");
            std::process::exit(2);
        }));
    }
    let (server, travel) = start(config).await?;
    eprintln!(
        "travel: payment page at {}/pay/ (each payment gets a link of its own)",
        travel.page
    );
    Ok(server)
}

/// The log on stderr (`RUST_LOG`, `warn` by default) and, with `--otlp` or an OTLP endpoint in
/// the environment, the spans of every request for an OpenTelemetry collector: flushed when
/// the returned guard drops.
fn observe(args: &mut Vec<String>) -> Result<Option<Otlp>, OtlpError> {
    use tracing_subscriber::prelude::*;
    let otlp = match args.iter().position(|a| a == "--otlp") {
        Some(i) => {
            args.remove(i);
            Some(Otlp::new("travel")?)
        }
        None => Otlp::from_env("travel")?,
    };
    let log =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into());
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_filter(log),
        )
        .with(
            otlp.as_ref()
                .map(|o| o.layer().with_filter(LevelFilter::INFO)),
        )
        .init();
    Ok(otlp)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // Kept to the end of `main`: dropping it sends the spans still queued.
    let _otlp = observe(&mut args)?;
    let redis = RedisConfig::from_args_and_env(&mut args).unwrap_or_else(|e| {
        eprintln!("travel: {e}");
        std::process::exit(2);
    });
    let redis = redis.as_ref();
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
                "unknown argument `{other}`; usage: travel [--http [ADDR] [--metrics ADDR] | demo] [--redis URL] [--redis-ca PATH] [--otlp]"
            );
            std::process::exit(2);
        }
    }
    Ok(())
}
