//! The server's question figures for Prometheus: which questions its users' clients answer,
//! and which fallbacks they take and why (the runtime's `metrics` feature), on a scrape
//! endpoint of their own.
//!
//! The endpoint is the exporter's own HTTP listener on an address apart from the MCP
//! endpoint's: the figures name client applications, which are for the operator, not for
//! whoever can reach `/mcp`. It answers `GET` on any path; bind it to loopback or a private
//! interface.

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder};
use std::net::SocketAddr;

/// The buckets of `rondo_request_rounds`: a call's rounds, up to the default cap of 16.
const ROUNDS: &[f64] = &[1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0];
/// The buckets of `rondo_request_state_bytes`, up to the default cap of 64 KiB.
const STATE_BYTES: &[f64] = &[
    256.0, 512.0, 1024.0, 2048.0, 4096.0, 8192.0, 16384.0, 32768.0, 65536.0,
];

/// Installs the Prometheus recorder for this process and serves its figures on `addr`
/// (`GET /metrics`), on the current tokio runtime. The two distributions are histograms (not
/// the exporter's default summaries), so the instances of a fleet add up.
///
/// # Errors
/// When a recorder is already installed, or `addr` cannot be bound.
pub fn serve(addr: SocketAddr) -> Result<(), String> {
    let failed = |e: metrics_exporter_prometheus::BuildError| format!("metrics at {addr}: {e}");
    PrometheusBuilder::new()
        .with_http_listener(addr)
        .set_buckets_for_metric(Matcher::Full("rondo_request_rounds".into()), ROUNDS)
        .map_err(failed)?
        .set_buckets_for_metric(
            Matcher::Full("rondo_request_state_bytes".into()),
            STATE_BYTES,
        )
        .map_err(failed)?
        .install()
        .map_err(failed)
}
