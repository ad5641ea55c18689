//! Procedural macros of [`rondo-mcp`](https://docs.rs/rondo-mcp). Depend on `rondo-mcp`, which
//! re-exports them; generated code reaches the runtime only through `rondo_mcp::__private`.
