//! A fleet of instances sharing one state, on the shop of `shop.rs`: `Cx::once` on one
//! instance (`once`), what a server says at start (`start`), and two instances sharing a key
//! ring and one Redis (`on_redis`); tasks across a fleet (`tasks`), and the shared state on a
//! Redis that takes only TLS (`redis_tls`).

#[cfg(feature = "redis")]
mod on_redis;
mod once;
#[cfg(feature = "redis")]
mod redis_tls;
mod shop;
mod start;
mod tasks;
