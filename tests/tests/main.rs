//! Rondo's integration tests, one binary: each file here is a module (one link of the
//! dependency graph instead of one per file). `ui.rs` (trybuild) lives in `ui-tests/`, and
//! three files that need a process of their own are their own binaries: `fuzz_corpora.rs`
//! (it swaps the panic hook), `question_events.rs` (it installs the process-wide subscriber)
//! and `client_policy_log.rs` (tracing's per-call-site interest is process-wide).

mod http_support;
mod task_store_support;
use task_store_support::redis_server;
mod asks_advertised;
mod auth_jwt;
mod client_policy;
mod docs_truth;
mod elicit_forms;
mod fleet_state;
mod http_auth;
mod http_drain;
mod http_legacy;
mod http_limits;
mod http_modern;
mod http_revisions;
mod http_security;
mod http_sse;
mod http_sse_auth;
mod http_tasks;
mod hygiene;
mod macros_behaviour;
mod macros_scopes;
mod macros_tasks;
mod panics;
mod properties;
mod questions_attacks;
mod questions_determinism;
mod questions_elicit;
mod questions_sample_roots;
mod questions_sweep;
mod questions_wire_attacks;
mod revisions;
mod runtime_capabilities;
mod runtime_core;
mod runtime_legacy;
mod runtime_mrtr_answers;
mod runtime_mrtr_input;
mod runtime_mrtr_replay;
mod runtime_mrtr_state;
mod runtime_notifications;
mod runtime_paging;
mod runtime_stdio;
mod runtime_stdio_changes;
mod runtime_tasks;
mod schema_checks;
mod skills;
mod skills_disk;
#[path = "../../fuzz/src/targets.rs"]
#[allow(dead_code, reason = "the fuzz bodies properties.rs does not run")]
mod targets;
mod task_fleet;
mod task_store;
mod test_client_ends;
