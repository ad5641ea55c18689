//! The HTTP transports over a real socket: Streamable HTTP at 2026-07-28 (`modern`), at
//! 2025-11-25 (`legacy`) and at 2025-06-18 and 2025-03-26 (`revisions`), HTTP+SSE of 2024-11-05
//! (`sse`), the checks before any JSON-RPC (`security`), what a client can make it hold
//! (`limits`), draining at shutdown (`drain`), registry changes (`registry`) and tasks
//! (`tasks`).

mod drain;
mod legacy;
mod limits;
mod modern;
mod registry;
mod revisions;
mod security;
mod sse;
mod tasks;
