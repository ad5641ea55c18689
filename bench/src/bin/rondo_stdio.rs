//! The Rondo benchmark server (`add`, `delete_file` and `wait`) over stdin/stdout.
//!
//! `RONDO_BENCH_LAYERS=3` puts the middleware example's three layers around it (a policy that
//! keeps another tool for one principal, a rate limit no call reaches, an audit whose records
//! are counted and dropped), to measure what a stack of layers costs a request.
//!
//! Built with `--features otlp` and run with `OTEL_EXPORTER_OTLP_ENDPOINT` set, it exports
//! every request's span over OTLP (to `otlp_sink`, say), to measure what tracing costs.

use rondo_example_guarded::{Audit, Policy, Quota, RateLimit};
use rondo_mcp::Principal;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};

static AUDITED: AtomicU64 = AtomicU64::new(0);

#[tokio::main]
async fn main() -> std::io::Result<()> {
    #[cfg(feature = "otlp")]
    let _otlp = {
        use tracing_subscriber::prelude::*;
        let otlp = rondo_mcp::otel::Otlp::from_env("rondo_stdio").map_err(std::io::Error::other)?;
        let layer = otlp.as_ref().map(|o| {
            o.layer()
                .with_filter(tracing_subscriber::filter::LevelFilter::INFO)
        });
        tracing_subscriber::registry().with(layer).init();
        otlp
    };
    let mut server = rondo_bench::rondo_server::stdio_server();
    match std::env::var("RONDO_BENCH_LAYERS").as_deref() {
        Err(_) | Ok("0") => {}
        Ok("3") => {
            let quota = Quota::per_second(NonZeroU32::MAX);
            server = server
                .layer(Policy::new().only("delete_file", ["admin"]))
                .layer(RateLimit::per_principal(quota))
                .layer(Audit::new(|_| {
                    AUDITED.fetch_add(1, Ordering::Relaxed);
                }))
                .principal(Principal::new("bench"));
        }
        Ok(other) => {
            eprintln!("RONDO_BENCH_LAYERS is 0 or 3, not {other:?}");
            std::process::exit(2);
        }
    }
    server.serve_stdio().await
}
