//! The protocol revisions Rondo serves, and what each one has.
//!
//! 2026-07-28 is served statelessly (per-request `_meta`); the four before it open a session
//! with `initialize` (the handshake revisions). A session speaks the revision it negotiated:
//! every field, content type, capability and message a revision does not define is left out
//! of what the session is sent (`shape.rs`), and what the client declared is read with that
//! revision's meaning. The predicates below are the one table of what came when (design §7).

use std::fmt;
use std::str::FromStr;

/// A protocol revision the server speaks.
///
/// Ordered by date, so `revision >= Revision::V2025_06_18` reads "2025-06-18 or later".
/// New revisions will be added: match with a wildcard arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Revision {
    /// 2024-11-05: the first revision. `initialize`, sampling and roots; no elicitation, no
    /// audio, no tool annotations; remote clients use the HTTP+SSE transport.
    V2024_11_05,
    /// 2025-03-26: Streamable HTTP, JSON-RPC batches, tool annotations, audio content, the
    /// `completions` capability, progress messages.
    V2025_03_26,
    /// 2025-06-18: form elicitation, `structuredContent`/`outputSchema`, resource links,
    /// `title`, `_meta` on most types; no more batches.
    V2025_06_18,
    /// 2025-11-25: URL-mode elicitation, icons, sampling with tools, tasks.
    V2025_11_25,
    /// 2026-07-28: stateless, per-request `_meta`, Multi Round-Trip Requests.
    V2026_07_28,
}

/// The versions served statelessly through per-request `_meta` (listed by `server/discover`
/// and in `-32022` errors).
pub(crate) const MODERN_VERSIONS: &[&str] = &["2026-07-28"];

impl Revision {
    /// Every revision, oldest first.
    pub const ALL: [Revision; 5] = [
        Revision::V2024_11_05,
        Revision::V2025_03_26,
        Revision::V2025_06_18,
        Revision::V2025_11_25,
        Revision::V2026_07_28,
    ];

    /// The newest revision that opens with `initialize`: what a client asking for an unknown
    /// version is offered.
    pub const NEWEST_HANDSHAKE: Revision = Revision::V2025_11_25;

    /// The version string.
    pub fn as_str(self) -> &'static str {
        match self {
            Revision::V2024_11_05 => "2024-11-05",
            Revision::V2025_03_26 => "2025-03-26",
            Revision::V2025_06_18 => "2025-06-18",
            Revision::V2025_11_25 => "2025-11-25",
            Revision::V2026_07_28 => "2026-07-28",
        }
    }

    /// The revision a version string names, if Rondo serves it.
    pub fn parse(version: &str) -> Option<Revision> {
        Revision::ALL.into_iter().find(|r| r.as_str() == version)
    }

    /// `true` for 2026-07-28 and later (per-request metadata, MRTR).
    pub fn is_modern(self) -> bool {
        self >= Revision::V2026_07_28
    }

    /// Tool annotations, audio content, the `completions` capability and a progress
    /// notification's `message` (2025-03-26).
    pub(crate) fn has_annotations_and_audio(self) -> bool {
        self >= Revision::V2025_03_26
    }

    /// JSON-RPC batches: only 2025-03-26 has them (2025-06-18 removed them).
    pub(crate) fn has_batches(self) -> bool {
        self == Revision::V2025_03_26
    }

    /// Form elicitation, `structuredContent` and `outputSchema`, resource links, `title` and
    /// `_meta` on listed items and content, `lastModified` annotations (2025-06-18).
    pub(crate) fn has_elicitation_and_structure(self) -> bool {
        self >= Revision::V2025_06_18
    }

    /// URL-mode elicitation, icons, `Implementation.description`/`websiteUrl`, sampling
    /// with tools and its `context` capability, titled and multi-select enums and defaults on
    /// every form field, tasks (2025-11-25).
    pub(crate) fn has_url_elicitation_and_icons(self) -> bool {
        self >= Revision::V2025_11_25
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A version string Rondo does not serve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRevision(pub String);

impl fmt::Display for UnknownRevision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown protocol revision `{}`", self.0)
    }
}

impl std::error::Error for UnknownRevision {}

impl FromStr for Revision {
    type Err = UnknownRevision;
    fn from_str(s: &str) -> Result<Revision, UnknownRevision> {
        Revision::parse(s).ok_or_else(|| UnknownRevision(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_round_trip_and_are_ordered_by_date() {
        for r in Revision::ALL {
            assert_eq!(r.as_str().parse::<Revision>(), Ok(r));
        }
        assert!(
            Revision::ALL
                .windows(2)
                .all(|w| w[0] < w[1] && w[0].as_str() < w[1].as_str())
        );
        assert_eq!(
            "2025-01-01".parse::<Revision>().unwrap_err().to_string(),
            "unknown protocol revision `2025-01-01`"
        );
    }

    #[test]
    fn the_newest_handshake_revision_is_the_one_before_the_modern_ones() {
        let handshake = Revision::ALL.into_iter().filter(|r| !r.is_modern()).max();
        assert_eq!(handshake, Some(Revision::NEWEST_HANDSHAKE));
        let modern: Vec<&str> = Revision::ALL
            .into_iter()
            .filter(|r| r.is_modern())
            .map(Revision::as_str)
            .collect();
        assert_eq!(modern, MODERN_VERSIONS);
    }

    #[test]
    fn only_2025_03_26_has_batches() {
        let with: Vec<Revision> = Revision::ALL
            .into_iter()
            .filter(|r| r.has_batches())
            .collect();
        assert_eq!(with, [Revision::V2025_03_26]);
    }
}
