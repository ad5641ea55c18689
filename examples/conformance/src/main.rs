//! `PORT=3000 cargo run -p rondo-example-conformance` serves the conformance suite's server
//! contract at `http://127.0.0.1:3000/mcp`, for every protocol revision.
//!
//! `--stdio` serves it over stdin/stdout instead (`interop/` drives its prompts, resources and
//! content types with clients of every revision, on both transports).
//!
//! `--redis URL` (or `RONDO_REDIS_URL`) shares the replay guard, the effect ledger and the
//! task store on that Redis, and `RONDO_STATE_KEYS` gives the key ring that seals
//! `requestState`, as the instances of a fleet do. A key ring that does not read, or a Redis
//! that cannot be reached, ends the process with one line and status 2.

use rondo_example_conformance::server;
use std::net::{Ipv4Addr, SocketAddr};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let port: u16 = std::env::var("PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(3000);
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let mut server = server();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (stdio, args) = match args.split_first() {
        Some((flag, rest)) if flag == "--stdio" => (true, rest),
        _ => (false, args.as_slice()),
    };
    let redis = match args {
        [] => rondo_mcp::shared::Redis::from_env("RONDO_REDIS_URL").await,
        [flag, url] if flag == "--redis" => rondo_mcp::shared::Redis::connect(url).await.map(Some),
        _ => {
            eprintln!("usage: conformance [--stdio] [--redis URL]");
            std::process::exit(2);
        }
    };
    let redis = redis.unwrap_or_else(|e| {
        eprintln!("conformance: {e}");
        std::process::exit(2);
    });
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
    if stdio {
        server.serve_stdio().await?;
        return Ok(());
    }
    eprintln!("conformance server on http://{addr}/mcp");
    // SIGTERM or ctrl-c: stop accepting and drain the requests in flight.
    rondo_mcp::http::serve(server, addr, rondo_mcp::http::shutdown_signal()).await?;
    Ok(())
}
