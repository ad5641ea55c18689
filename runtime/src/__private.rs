//! Items the macros' expansions reference. Not a public API: no semver guarantees; the macros
//! crate is pinned with `=x.y.z` so both always match.

/// serde_json, for generated (de)serialisation code (all macros).
pub use serde_json;
