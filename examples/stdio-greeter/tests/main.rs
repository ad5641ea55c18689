//! The example's integration tests, one binary: each file here is a module.

mod process;
mod schema_formats;
