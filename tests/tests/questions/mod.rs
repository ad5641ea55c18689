//! Typed questions (`#[derive(Elicit)]`, `#[elicit]`, `#[sample]`, `#[roots]`, `asks = [..]`):
//! the forms a derive renders (`forms`), questions answered well and badly (`elicit`,
//! `sample_roots`, `attacks`, `wire_attacks`, `properties`), what a listing advertises
//! (`advertised`), deterministic renderings (`determinism`), client policies
//! (`client_policy`) and `testing::Sweep` (`sweep`).

mod advertised;
mod attacks;
mod client_policy;
mod determinism;
mod elicit;
mod forms;
mod properties;
mod sample_roots;
mod sweep;
mod wire_attacks;
