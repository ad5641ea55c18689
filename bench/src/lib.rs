//! Benchmarks of Rondo, compared with rmcp (the official Rust MCP SDK).
//!
//! Both frameworks serve the same tools ([`rondo_server`], [`rmcp_server`]) and are driven by
//! the same hand-written client ([`wire`]), which writes raw newline-delimited JSON-RPC lines
//! and reads the answers, so the client's cost is identical on both sides. The criterion
//! benchmarks are in `benches/mcp.rs`; the memory run is `src/bin/driver.rs` against the two
//! stdio servers in `src/bin/`. Results and how to reproduce them: `BENCHMARKS.md`.
//!
//! Where users run the code: `real.sh` runs `src/bin/stdio_bench.rs` (child processes over
//! pipes) and `src/bin/http_bench.rs` (servers on 127.0.0.1) against three release servers
//! each, Rondo, rmcp and the [`floor`] (no MCP framework), side by side; [`stats`] holds what
//! the two drivers share.

pub mod floor;
pub mod rmcp_server;
pub mod rondo_server;
pub mod stats;
pub mod wire;
