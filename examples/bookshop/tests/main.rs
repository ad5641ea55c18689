//! The example's integration tests, one binary: each file here is a module.

mod deploy;
mod listing;
mod orders;
mod schema_formats;
mod sweep;
mod unreachable_redis;
