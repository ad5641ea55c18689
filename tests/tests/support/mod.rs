//! What the tests of several areas share: an HTTP client and servers to drive (`http`), the
//! task store contract every store is held to (`task_store`), and a private `redis-server`
//! (`redis_server`) for the Redis stores, the fleet and TLS.

pub mod http;
#[cfg_attr(
    not(feature = "redis"),
    allow(dead_code, reason = "only the Redis tests start one")
)]
pub mod redis_server;
pub mod task_store;
