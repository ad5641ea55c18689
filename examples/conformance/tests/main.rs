//! The example's integration tests, one binary: each file here is a module.

mod contract;
mod schema_formats;
mod skills;
mod tasks;
mod unreachable_redis;
