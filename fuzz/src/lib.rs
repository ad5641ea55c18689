//! The fuzz targets' bodies (`targets.rs`), also replayed over the committed corpora by
//! `tests/tests/fuzz_corpora.rs` on stable.

mod targets;

pub use targets::*;
