//! Rondo's integration tests, one binary (one link of the dependency graph instead of one per
//! file), in a folder per area: `auth/`, `docs/`, `fleet/`, `http/`, `macros/`, `questions/`,
//! `revisions/`, `rounds/`, `runtime/`, `skills/`, `stdio/`, `tasks/` and `testing/`, each
//! declaring its files in its `mod.rs`; what several areas share is in `support/`. A test's
//! name starts with its path (`docs::truth::...` is in `docs/truth.rs`), so a filter picks an
//! area or a file. `ui.rs` (trybuild) lives in `ui-tests/`, and three files that need a process
//! of their own are their own binaries: `fuzz_corpora.rs` (it swaps the panic hook),
//! `question_events.rs` (it installs the process-wide subscriber) and `client_policy_log.rs`
//! (tracing's per-call-site interest is process-wide).

mod auth;
mod docs;
mod fleet;
mod http;
mod macros;
mod questions;
mod revisions;
mod rounds;
mod runtime;
mod skills;
mod stdio;
mod support;
mod tasks;
mod testing;

#[path = "../../fuzz/src/targets.rs"]
#[allow(
    dead_code,
    reason = "the fuzz bodies questions/properties.rs does not run"
)]
mod targets;
