//! Shared by the behaviour tests: the hand-written servers and request builders, and
//! [`validate_transcript`] for lines recorded outside the in-memory client (which checks every
//! line itself).

use rondo_mcp::protocol::Revision;
use rondo_mcp::testing::{Direction, Frame, Validator};

pub mod auth_as;
pub mod logs;
pub mod published;
pub mod servers;

/// The repository's README, whose examples run here as doctests: it is not inside a published
/// crate (the runtime's crate documentation is `runtime/README.md`).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// Checks every line of `transcript` with the runtime's [`Validator`] for `revision`, failing
/// (panicking) on the first violations; returns how many lines were checked.
#[track_caller]
pub fn validate_transcript(revision: Revision, transcript: &[Frame]) -> usize {
    let mut check = Validator::new(revision);
    for f in transcript {
        match f.direction {
            Direction::Sent => check.sent(&f.line),
            Direction::Received => check.received(&f.line),
        }
    }
    check.assert_valid();
    check.checked()
}
pub mod attacks;
pub mod questions;

/// Checks `instance` against `$defs/<def>` of the official schema of `revision`.
pub fn validate_def(
    revision: Revision,
    def: &str,
    instance: &serde_json::Value,
) -> Result<(), String> {
    Validator::check_def(revision, def, instance)
}
pub mod sampling;

/// Copies the folder `from` to `to` (made if missing), files and folders (skill fixtures the
/// tests then change, or lay out where the UI tests read them).
pub fn copy_dir(from: &std::path::Path, to: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        if e.file_type()?.is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()))?;
        } else {
            std::fs::copy(e.path(), to.join(e.file_name()))?;
        }
    }
    Ok(())
}
