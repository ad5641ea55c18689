//! A fleet of instances sharing one state: replays and effects across instances (`state`),
//! tasks across a fleet (`tasks`), and the shared state on a Redis that takes only TLS
//! (`redis_tls`).

#[cfg(feature = "redis")]
mod redis_tls;
mod state;
mod tasks;
