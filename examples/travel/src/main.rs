//! The travel-booking MCP server (`travel --help` lists what follows).
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

use clap::{Parser, Subcommand};
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

/// The travel-booking MCP server: a flight search picked by the client's model, a booking
/// approved in two forms, payment on a real page, the travel agent's folders.
///
/// Without a command it serves MCP over stdin/stdout (point an MCP client at this command).
/// Configuration (environment): TRAVEL_FLIGHT_FALLBACK (rank, provider, host),
/// TRAVEL_MODEL_PROVIDER (fake, http://.., or a command), TRAVEL_WORKSPACE,
/// TRAVEL_PAYMENT_ADDR (the payment page, default 127.0.0.1:0), RONDO_STATE_KEYS, and the
/// RONDO_REDIS_* variables (one Redis, Sentinel or Cluster, TLS files).
#[derive(Parser)]
#[command(version)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Serve Streamable HTTP on ADDR (default 127.0.0.1:3000), path /mcp, and the HTTP+SSE
    /// transport of 2024-11-05 clients at /sse.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:3000")]
    http: Option<SocketAddr>,
    /// With --http: serve the question figures for Prometheus on ADDR, path /metrics.
    #[arg(long, value_name = "ADDR", requires = "http")]
    metrics: Option<SocketAddr>,
    /// Share the replay guard, the decisions' ledger and the tasks with every instance on
    /// this Redis (rediss:// for TLS). RONDO_REDIS_URL says the same.
    #[arg(long, value_name = "URL", global = true)]
    redis: Option<String>,
    /// Verify a rediss:// Redis with these CA certificates (PEM). RONDO_REDIS_CA says the same.
    #[arg(long, value_name = "PATH", global = true)]
    redis_ca: Option<String>,
    /// Export every request's span over OTLP/HTTP (protobuf) to the endpoint of
    /// OTEL_EXPORTER_OTLP_ENDPOINT, or http://localhost:4318. Setting that variable (or
    /// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) alone turns it on.
    #[arg(long, global = true)]
    otlp: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Run this server as a child process and drive its richest flows through it, as a
    /// 2026-07-28 client and as a 2025-11-25 client; exits non-zero on a wrong outcome.
    Demo,
}

impl Args {
    /// `--redis` and `--redis-ca` over the `RONDO_REDIS_*` variables.
    fn redis(&self) -> Result<Option<RedisConfig>, rondo_mcp::shared::ConnectError> {
        RedisConfig::from_flags_and_env(self.redis.as_deref(), self.redis_ca.as_deref())
    }
}

/// The log on stderr (`RUST_LOG`, `warn` by default) and, with `--otlp` or an OTLP endpoint in
/// the environment, the spans of every request for an OpenTelemetry collector: flushed when
/// the returned guard drops.
fn observe(otlp: bool) -> Result<Option<Otlp>, OtlpError> {
    use tracing_subscriber::prelude::*;
    let otlp = if otlp {
        Some(Otlp::new("travel")?)
    } else {
        Otlp::from_env("travel")?
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
    let args = Args::parse();
    // Kept to the end of `main`: dropping it sends the spans still queued.
    let _otlp = observe(args.otlp)?;
    let redis = args.redis().unwrap_or_else(|e| {
        eprintln!("travel: {e}");
        std::process::exit(2);
    });
    let redis = redis.as_ref();
    match (args.command, args.http) {
        (Some(Command::Demo), _) => {
            if let Err(e) = demo::run().await {
                eprintln!("\n{e}");
                std::process::exit(1);
            }
        }
        (None, None) => server(redis).await?.serve_stdio().await?,
        (None, Some(addr)) => {
            if let Some(metrics) = args.metrics {
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
    }
    Ok(())
}
