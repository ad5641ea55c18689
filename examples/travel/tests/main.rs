//! The example's integration tests, one binary: each file here is a module.

mod booking;
mod browser;
mod command_line;
mod common;
mod files;
mod flights;
mod links;
mod links_redis;
mod otel;
mod payment;
#[path = "../../../tests/tests/support/redis_server.rs"]
mod redis_server;
mod schema_formats;
mod skill;
mod sweep;
mod tasks;
mod unreachable_redis;
