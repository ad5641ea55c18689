//! A bookshop MCP server whose `order_book` tool asks the user to confirm (`bookshop --help`
//! lists what follows).
//!
//! ```text
//! bookshop              serve MCP over stdin/stdout (point an MCP client at this command)
//! bookshop --http ADDR  serve Streamable HTTP on ADDR (default 127.0.0.1:3000), path /mcp;
//!                       SIGTERM or ctrl-c stops accepting and drains the requests in flight
//! bookshop demo         run this server as a child process and drive one order through it,
//!                       once as a 2026-07-28 client and once as a 2025-11-25 client
//!
//! --redis URL           (with either way of serving) share the replay guard, the orders'
//!                       ledger and the tasks with every instance on that Redis: what makes
//!                       a fleet one server; RONDO_REDIS_URL says the same (`rediss://` for TLS)
//! --redis-ca PATH       verify a rediss:// Redis with these CA certificates (PEM), not the
//!                       system's roots; RONDO_REDIS_CA says the same
//! ```
//!
//! Environment: `RONDO_STATE_KEYS` (the key ring a fleet shares, `id:secret,...`, the first
//! entry seals), the `RONDO_REDIS_*` variables of `rondo_mcp::shared::RedisConfig` (one Redis,
//! a Sentinel-managed primary or a Redis Cluster, TLS files, replicas to wait for) and
//! `BOOKSHOP_ALLOWED_HOSTS`
//! (comma-separated `Host` names to accept besides the local ones, e.g. the name clients use
//! behind a load balancer).
//!
//! Authorization (`--http` only): with `BOOKSHOP_AUTH_ISSUER` (the authorization server's
//! issuer URL) and `BOOKSHOP_PUBLIC_URL` (this endpoint's canonical URL, e.g.
//! `https://books.example/mcp`: the audience its tokens must name) set, the endpoint is an
//! OAuth 2.1 resource server: every request needs a JWT access token from that issuer with
//! the scope `books:read`, and `order_book` needs `orders:write` too. The issuer's keys come
//! from `BOOKSHOP_AUTH_JWKS_URL` when set, else from its discovery document. Without them it
//! serves anyone, as a local server.

mod demo;

use clap::{Parser, Subcommand};
use rondo_example_bookshop::router;
use rondo_mcp::auth::{Algorithm, JwtVerifier, ResourceServer};
use rondo_mcp::http::HttpConfig;
use rondo_mcp::prelude::*;
use rondo_mcp::shared::{Redis, RedisConfig};
use std::net::SocketAddr;

/// The server: the key ring of `RONDO_STATE_KEYS`, and the shared state on the Redis of
/// `--redis URL` or the `RONDO_REDIS_*` variables. Either wrong ends the process with the
/// reason.
async fn server(redis: Option<&RedisConfig>) -> Server<Router> {
    let keys = rondo_mcp::state::KeyRing::from_env("RONDO_STATE_KEYS").unwrap_or_else(|e| {
        eprintln!("RONDO_STATE_KEYS: {e}");
        std::process::exit(2);
    });
    let shared = match redis {
        Some(config) => Some(Redis::open(config).await.unwrap_or_else(|e| {
            eprintln!("bookshop: {e}");
            std::process::exit(2);
        })),
        None => None,
    };
    let mut server = Server::new(router());
    if let Some(k) = keys {
        server = server.state_keys(k);
    }
    if let Some(redis) = shared {
        server = server.shared_state(redis);
    }
    server
}

/// The HTTP settings: the defaults, plus the `Host` names in `BOOKSHOP_ALLOWED_HOSTS`, and
/// the resource server when `BOOKSHOP_AUTH_ISSUER` is set.
fn http_config() -> Result<HttpConfig, String> {
    let hosts = std::env::var("BOOKSHOP_ALLOWED_HOSTS").unwrap_or_default();
    let cfg = hosts
        .split(',')
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .fold(HttpConfig::default(), HttpConfig::allow_host);
    Ok(match resource_server()? {
        Some(rs) => cfg.protect(rs),
        None => cfg,
    })
}

/// The resource server the environment describes, if it names an issuer.
fn resource_server() -> Result<Option<ResourceServer>, String> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let Some(issuer) = var("BOOKSHOP_AUTH_ISSUER") else {
        return Ok(None);
    };
    let url = var("BOOKSHOP_PUBLIC_URL")
        .ok_or("BOOKSHOP_AUTH_ISSUER needs BOOKSHOP_PUBLIC_URL, this endpoint's canonical URL")?;
    let keys = JwtVerifier::builder(&issuer).algorithms([Algorithm::RS256, Algorithm::ES256]);
    let keys = match var("BOOKSHOP_AUTH_JWKS_URL") {
        Some(jwks) => keys.jwks_url(&jwks),
        None => keys.discover(),
    };
    let verifier = keys
        .build()
        .map_err(|e| format!("the token verifier: {e}"))?;
    let rs = ResourceServer::builder(&url)
        .authorization_server(&issuer)
        .verifier(verifier)
        .required_scopes(["books:read"])
        .resource_name("Bookshop")
        .build()
        .map_err(|e| format!("the resource server: {e}"))?;
    Ok(Some(rs))
}

/// A bookshop MCP server whose `order_book` tool asks the user to confirm.
///
/// Without a command it serves MCP over stdin/stdout (point an MCP client at this command).
/// Environment: RONDO_STATE_KEYS (the key ring a fleet shares, id:secret,...), the
/// RONDO_REDIS_* variables (one Redis, Sentinel, Cluster, TLS files), BOOKSHOP_ALLOWED_HOSTS
/// (Host names to accept besides the local ones), and for an OAuth-protected --http endpoint
/// BOOKSHOP_AUTH_ISSUER, BOOKSHOP_PUBLIC_URL and BOOKSHOP_AUTH_JWKS_URL.
#[derive(Parser)]
#[command(version)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Serve Streamable HTTP on ADDR (default 127.0.0.1:3000), path /mcp. SIGTERM or ctrl-c
    /// stops accepting and drains the requests in flight.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:3000")]
    http: Option<SocketAddr>,
    /// Share the replay guard, the orders' ledger and the tasks with every instance on this
    /// Redis (rediss:// for TLS). RONDO_REDIS_URL says the same.
    #[arg(long, value_name = "URL", global = true)]
    redis: Option<String>,
    /// Verify a rediss:// Redis with these CA certificates (PEM), not the system's roots.
    /// RONDO_REDIS_CA says the same.
    #[arg(long, value_name = "PATH", global = true)]
    redis_ca: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Run this server as a child process and drive one order through it, as a 2026-07-28
    /// client and as a 2025-11-25 client.
    Demo,
}

impl Args {
    /// `--redis` and `--redis-ca` over the `RONDO_REDIS_*` variables.
    fn redis(&self) -> Result<Option<RedisConfig>, rondo_mcp::shared::ConnectError> {
        RedisConfig::from_flags_and_env(self.redis.as_deref(), self.redis_ca.as_deref())
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let redis = args.redis().unwrap_or_else(|e| {
        eprintln!("bookshop: {e}");
        std::process::exit(2);
    });
    let redis = redis.as_ref();
    match (args.command, args.http) {
        (Some(Command::Demo), _) => demo::run().await?,
        (None, None) => server(redis).await.serve_stdio().await?,
        (None, Some(addr)) => {
            let config = http_config().unwrap_or_else(|e| {
                eprintln!("bookshop: {e}");
                std::process::exit(2);
            });
            let service = server(redis).await.into_http(config);
            let listener = tokio::net::TcpListener::bind(addr).await?;
            eprintln!("bookshop: MCP endpoint http://{addr}/mcp");
            rondo_mcp::http::serve_listener(service, listener, rondo_mcp::http::shutdown_signal())
                .await?;
        }
    }
    Ok(())
}
