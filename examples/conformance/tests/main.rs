//! The example's integration tests, one binary: each file here is a module.

mod contract;
mod schema_formats;
mod skills;
mod startup;
mod tasks;
