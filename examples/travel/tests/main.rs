//! The example's integration tests, one binary: each file here is a module.

mod booking;
mod browser;
mod common;
mod files;
mod flights;
mod links;
mod links_redis;
mod payment;
mod schema_formats;
mod skill;
mod sweep;
mod tasks;
mod unreachable_redis;
