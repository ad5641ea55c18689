//! `guarded`: the notebook on stdin/stdout behind the three layers.
//!
//! - `GUARDED_USER` names the user the server serves (default: `$USER`); a stdio server has no
//!   tokens, so it is told who its one user is.
//! - `GUARDED_ADMINS`: the users who may call `purge_notes` (comma-separated; default none).
//! - `GUARDED_PER_MINUTE`: tool calls per user and minute (default 60, in bursts of up to 10).
//!
//! The audit log goes to stderr as JSON lines (`audit {..}`), beside the server's log.
//!
//! ```sh
//! GUARDED_USER=ada GUARDED_ADMINS=ada cargo run -p rondo-example-guarded
//! ```

use governor::Quota;
use rondo_example_guarded::{Audit, Policy, RateLimit, router};
use rondo_mcp::prelude::*;
use std::num::NonZeroU32;
use tracing_subscriber::EnvFilter;

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
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
    let per_minute = match var("GUARDED_PER_MINUTE").map(|v| v.trim().parse::<NonZeroU32>()) {
        None => NonZeroU32::new(60).expect("not zero"),
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("guarded: GUARDED_PER_MINUTE must be a whole number above 0: {e}");
            std::process::exit(2);
        }
    };
    let burst = per_minute.min(NonZeroU32::new(10).expect("not zero"));
    let admins: Vec<String> = var("GUARDED_ADMINS")
        .map(|v| {
            v.split(',')
                .map(|a| a.trim().to_owned())
                .filter(|a| !a.is_empty())
                .collect()
        })
        .unwrap_or_default();
    // Added first, inside: the policy; then the rate limit; the audit last, outermost, so
    // that it records the calls the other two refuse.
    let mut server = Server::new(router())
        .layer(Policy::new().only("purge_notes", admins))
        .layer(RateLimit::per_principal(
            Quota::per_minute(per_minute).allow_burst(burst),
        ))
        .layer(Audit::to_stderr());
    match var("GUARDED_USER").or_else(|| var("USER")) {
        Some(user) => server = server.principal(Principal::new(user)),
        None => tracing::warn!("no GUARDED_USER or USER: calls are made by no one"),
    }
    tracing::info!("guarded serving stdin/stdout");
    server.serve_stdio().await
}
