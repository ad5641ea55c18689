//! Benchmarks of Rondo, compared with rmcp (the official Rust MCP SDK).
//!
//! Both frameworks serve the same tools ([`rondo_server`], [`rmcp_server`]) and are driven by
//! the same hand-written client ([`wire`]), which writes raw newline-delimited JSON-RPC lines
//! and reads the answers, so the client's cost is identical on both sides. The criterion
//! benchmarks are in `benches/mcp.rs`; the memory run is `src/bin/driver.rs` against the two
//! stdio servers in `src/bin/`. Results and how to reproduce them: `BENCHMARKS.md`.

pub mod floor;
pub mod rmcp_server;
pub mod rondo_server;
pub mod stats;
pub mod wire;
