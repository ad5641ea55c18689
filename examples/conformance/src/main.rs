//! `PORT=3000 cargo run -p rondo-example-conformance` serves the conformance suite's server
//! contract at `http://127.0.0.1:3000/mcp`, for every protocol revision.
//!
//! `--stdio` serves it over stdin/stdout instead (`interop/` drives its prompts, resources and
//! content types with clients of every revision, on both transports).
//!
//! `--redis URL` (or `RONDO_REDIS_URL`, or the other `RONDO_REDIS_*` variables of
//! `rondo_mcp::shared::RedisConfig`: Sentinel, Cluster, TLS files; `--redis-ca PATH` for
//! `RONDO_REDIS_CA`) shares the replay guard, the effect ledger and the
//! task store on that Redis, and `RONDO_STATE_KEYS` gives the key ring that seals
//! `requestState`, as the instances of a fleet do. A key ring that does not read, or a Redis
//! that cannot be reached, ends the process with one line and status 2.

use clap::Parser;
use rondo_example_conformance::server;
use rondo_mcp::shared::{Redis, RedisConfig};
use std::net::{Ipv4Addr, SocketAddr};

/// The official conformance suite's server contract, for every protocol revision: Streamable
/// HTTP at http://127.0.0.1:PORT/mcp (PORT defaults to 3000), or stdin/stdout with --stdio.
///
/// RONDO_STATE_KEYS gives the key ring that seals requestState, and the RONDO_REDIS_*
/// variables (Sentinel, Cluster, TLS files) a shared Redis, as the instances of a fleet use.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Serve stdin/stdout instead of HTTP.
    #[arg(long)]
    stdio: bool,
    /// The HTTP port on 127.0.0.1.
    #[arg(long, env = "PORT", default_value_t = 3000)]
    port: u16,
    /// Share the replay guard, the effect ledger and the task store on this Redis.
    /// RONDO_REDIS_URL says the same.
    #[arg(long, value_name = "URL")]
    redis: Option<String>,
    /// Verify a rediss:// Redis with these CA certificates (PEM). RONDO_REDIS_CA says the same.
    #[arg(long, value_name = "PATH")]
    redis_ca: Option<String>,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, args.port));
    let mut server = server();
    let exit = |e: &dyn std::fmt::Display| -> ! {
        eprintln!("conformance: {e}");
        std::process::exit(2);
    };
    // `--redis` and `--redis-ca` over the `RONDO_REDIS_*` variables.
    let redis = RedisConfig::from_flags_and_env(args.redis.as_deref(), args.redis_ca.as_deref())
        .unwrap_or_else(|e| exit(&e));
    let redis = match redis {
        Some(config) => Some(Redis::open(&config).await.unwrap_or_else(|e| exit(&e))),
        None => None,
    };
    let keys = rondo_mcp::state::KeyRing::from_env("RONDO_STATE_KEYS").unwrap_or_else(|e| {
        eprintln!("conformance: RONDO_STATE_KEYS: {e}");
        std::process::exit(2);
    });
    if let Some(keys) = keys {
        server = server.state_keys(keys);
    }
    if let Some(redis) = redis {
        server = server.shared_state(redis);
    }
    if args.stdio {
        server.serve_stdio().await?;
        return Ok(());
    }
    eprintln!("conformance server on http://{addr}/mcp");
    // SIGTERM or ctrl-c: stop accepting and drain the requests in flight.
    rondo_mcp::http::serve(server, addr, rondo_mcp::http::shutdown_signal()).await?;
    Ok(())
}
