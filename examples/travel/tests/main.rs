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
mod schema_formats;
mod skill;
mod sweep;
mod tasks;
mod unreachable_redis;
