//! The guide: how to write, serve, deploy and test a Rondo server, one page per topic.
//!
//! Each page is a module without items, its text a Markdown file of `runtime/guide/`, so that it
//! is versioned with the crate, rendered with the API it describes, and every Rust example in it
//! is a doctest (`cargo test --doc -p rondo-mcp --all-features`).
//!
//! - [`getting_started`]: the `Cargo.toml`, a first server, a tool that asks, state, one
//!   question of each kind, logs, a test at both revisions (feature `http`).
//! - [`asking`]: questions to the user, `#[elicit]`, `asks = [..]`, fallbacks, URL mode,
//!   `cx.once`, forms from types (`#[derive(Elicit)]`), client policies.
//! - [`sampling_and_roots`]: the client's model (`#[sample]`) and folders (`#[roots]`).
//! - [`attributes`]: every attribute and its keys, parameters, return types, what the compiler
//!   rejects.
//! - [`middleware`]: tower layers around every message: an audit log, a rate limit per
//!   principal, a tool policy, tower's timeout and concurrency limit.
//! - [`serving`]: stdio, Streamable HTTP, stopping, and the protocol notes.
//! - [`changing`]: tools, prompts and resources added and removed while serving (the registry).
//! - [`extending`]: custom request methods and extensions, and how Rondo's own are registered.
//! - [`fleet`]: many instances behind a load balancer: shared state on Redis, the key ring and
//!   its rotation, nginx and Kubernetes.
//! - [`authorization`]: a remote server as an OAuth 2.1 resource server (feature
//!   `auth-remote`).
//! - [`tasks`]: long-running tools (the tasks extension).
//! - [`skills`]: serving a folder of Agent Skills (feature `skills`).
//! - [`observability`]: which fallbacks your users hit: events and metrics; one trace per flow:
//!   OpenTelemetry spans and OTLP export (features `otel`, `otlp`).
//! - [`testing`]: the test client, the capability sweep, the Inspector, fuzzing.
//! - [`examples`]: the example servers, and what three kinds of client see from each.
//! - [`migrating_from_rmcp`]: a tool written with rmcp beside the same tool in Rondo.

// Feature `http`: its servers take `--http ADDR`. Its first two blocks are copies of
// `examples/hello` and `examples/ask`, kept equal by a test (design §30).
#[cfg(feature = "http")]
#[doc = include_str!("../../guide/getting_started.md")]
pub mod getting_started {}

#[doc = include_str!("../../guide/asking.md")]
pub mod asking {}

#[doc = include_str!("../../guide/sampling_and_roots.md")]
pub mod sampling_and_roots {}

#[doc = include_str!("../../guide/attributes.md")]
pub mod attributes {}

#[doc = include_str!("../../guide/middleware.md")]
pub mod middleware {}

#[doc = include_str!("../../guide/serving.md")]
pub mod serving {}

#[doc = include_str!("../../guide/changing.md")]
pub mod changing {}

#[doc = include_str!("../../guide/extending.md")]
pub mod extending {}

#[doc = include_str!("../../guide/fleet.md")]
pub mod fleet {}

// Feature `auth-remote`: its example verifies JWTs with keys found by discovery.
#[cfg(feature = "auth-remote")]
#[doc = include_str!("../../guide/authorization.md")]
pub mod authorization {}

#[doc = include_str!("../../guide/tasks.md")]
pub mod tasks {}

#[doc = include_str!("../../guide/skills.md")]
pub mod skills {}

#[doc = include_str!("../../guide/observability.md")]
pub mod observability {}

#[doc = include_str!("../../guide/testing.md")]
pub mod testing {}

#[doc = include_str!("../../guide/examples.md")]
pub mod examples {}

#[doc = include_str!("../../guide/migrating_from_rmcp.md")]
pub mod migrating_from_rmcp {}
