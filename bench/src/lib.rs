//! Benchmarks of Rondo, compared with rmcp (the official Rust MCP SDK).
//!
//! Both frameworks serve the same tools ([`rondo_server`], [`rmcp_server`]) and are driven by
//! the same hand-written client ([`wire`]), which writes raw newline-delimited JSON-RPC lines
//! and reads the answers, so the client's cost is identical on both sides. The criterion
//! benchmarks are in `benches/mcp.rs`; the memory run is `src/bin/driver.rs` against the two
//! stdio servers in `src/bin/`. The multi-round flow ([`rounds`], [`rondo_rounds`],
//! [`rmcp_rounds`]) and the router with many tools ([`many_tools`]) are timed in
//! `benches/rounds.rs`; `src/bin/state_size.rs` prints `requestState` sizes. Results and how to
//! reproduce them: `BENCHMARKS.md`.
//!
//! Where users run the code: `real.sh` runs `src/bin/stdio_bench.rs` (child processes over
//! pipes) and `src/bin/http_bench.rs` (servers on 127.0.0.1) against three release servers
//! each, Rondo, rmcp and the [`floor`] (no MCP framework), side by side; [`stats`] holds what
//! the two drivers share.
//!
//! A fleet's shared state: `src/bin/guard_bench.rs` times two-round flows against
//! `src/bin/rondo_guarded.rs` with its replay guard in memory and on Redis, and
//! `src/bin/fleet_bench.rs` three bookshops behind nginx with and without Redis ([`flows`]:
//! the flows, the client and the Redis both start; `fleet.sh` runs both).

pub mod floor;
pub mod flows;
pub mod many_tools;
pub mod rmcp_rounds;
pub mod rmcp_server;
pub mod rondo_rounds;
pub mod rondo_server;
pub mod rounds;
pub mod stats;
pub mod wire;
