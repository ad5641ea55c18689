//! Serving a folder of [Agent Skills](https://agentskills.io/specification) over the MCP
//! Skills extension (`io.modelcontextprotocol/skills`, SEP-2640).
//!
//! A skill is a folder with a `SKILL.md` (YAML frontmatter with `name` and `description`,
//! then Markdown instructions) and any supporting files: references, scripts, templates. Put
//! your skills in one folder and serve it with one line, checked when the crate compiles
//! (feature `skills`):
//!
//! ```no_run
//! use rondo_mcp::prelude::*;
//!
//! // skills/pdf-forms/SKILL.md, skills/pdf-forms/references/FIELDS.md, ...
//! let router = Router::new(ServerInfo::new("docs", "1.0.0")).skills(rondo_mcp::skills!("skills"));
//! # let _ = router;
//! ```
//!
//! or read at start, for skills that change without a rebuild:
//!
//! ```no_run
//! # use rondo_mcp::prelude::*;
//! # fn main() -> Result<(), rondo_mcp::skills::SkillsError> {
//! let router = Router::new(ServerInfo::new("docs", "1.0.0"))
//!     .skills(rondo_mcp::Skills::from_dir("skills")?);
//! # let _ = router;
//! # Ok(())
//! # }
//! ```
//!
//! # What is served
//!
//! [`Router::skills`](crate::Router::skills) declares the extension (with `directoryRead: true`)
//! and the `resources` capability, in `server/discover` (2026-07-28) and in `initialize`
//! (2025-11-25), and serves:
//!
//! - `skills/list`: every skill's entry (its `SKILL.md` URI, its frontmatter verbatim as JSON,
//!   and every file with its `sha256:` digest and size), paged like the other lists
//!   ([`Router::page_size`](crate::Router::page_size), cursors a client cannot forge);
//! - `skills/get`: one entry by its `SKILL.md` URI; `-32602` for any other URI;
//! - `resources/read` of every file a manifest lists, byte for byte (text when UTF-8, a base64
//!   blob otherwise), so its SHA-256 is the manifest's;
//! - `resources/directory/read` of every folder (`skill://pdf-forms`,
//!   `skill://pdf-forms/references`): its direct children, subfolders as `inode/directory`;
//!   `-32602` for anything that is not a folder;
//! - `resources/list` shows each `SKILL.md` (named and described from its frontmatter,
//!   `text/markdown`), so a client without the extension still finds the skills.
//!
//! On 2026-07-28 `skills/list` and `skills/get` carry `ttlMs` and `cacheScope` (the server's
//! [`CacheHint`](crate::CacheHint)); 2025-11-25 results have neither, as none of that
//! revision's results do.
//!
//! # URIs
//!
//! The file `skills/acme/billing/refunds/examples/email.md` is
//! `skill://acme/billing/refunds/examples/email.md`: a folder without a `SKILL.md` groups
//! skills (here `refunds`, under `acme/billing`), and a skill inside another is a skill of its
//! own whose files are its parent's too. Names are percent-encoded as URI segments. Only the
//! URIs a manifest lists name a file: a request is matched against them exactly, never turned
//! into a path, so `..`, `%2e%2e`, an absolute path or another scheme reads nothing.
//!
//! # The rules, checked at compile time or at start
//!
//! Both ways check the same rules, and each problem names its file, the rule and the fix; the
//! macro fails the build at its string literal, [`Skills::from_dir`] returns [`SkillsError`]:
//!
//! - a `SKILL.md` begins with YAML frontmatter between two `---` lines (UTF-8, valid YAML,
//!   a mapping, nothing JSON cannot carry);
//! - `name`: 1 to 64 lowercase letters, digits and hyphens, no hyphen first, last or twice in a
//!   row, equal to the skill's folder name; `description`: 1 to 1024 characters; `metadata`, if
//!   present, a mapping without keys under `io.modelcontextprotocol/`; other fields pass through;
//! - every file is in a skill; no symbolic link leaves its skill's folder, none is a folder; no
//!   pipe, socket or device;
//! - a file is at most 16 MiB, a skill at most 512 files and 16 MiB in all (SEP-2640's limits).
//!
//! Names starting with `.` are left out. The macro's path is relative to the crate's folder
//! (`CARGO_MANIFEST_DIR`); it computes every digest and size when it expands and embeds each
//! file with `include_bytes!`, so cargo rebuilds when one of them changes. A file *added* to the
//! folder is not seen until the crate is rebuilt for another reason; a build script with
//! `println!("cargo::rerun-if-changed=skills");` makes cargo watch the whole folder.
//!
//! # A file that changes on disk
//!
//! [`Skills::from_dir`] hashes every file at start, and those digests are what `skills/list` and
//! `skills/get` state until the server stops. Each `resources/read` reads the file again and
//! serves it only while it is what the manifest states (same size and digest, still resolving
//! inside its skill's folder); otherwise the read fails with `-32603` saying the file changed,
//! and a warning is logged. A host is never handed bytes its entry's digest does not describe;
//! restart the server to publish a new version.
//!
//! # By hand
//!
//! A [`Handler`](crate::Handler) can serve skills of its own making (generated ones, say, with
//! [`SkillResources::Dynamic`](crate::protocol::SkillResources::Dynamic)): declare
//! [`ServerInfo::with_skills`](crate::ServerInfo::with_skills) and implement
//! [`list_skills`](crate::Handler::list_skills), [`get_skill`](crate::Handler::get_skill) and
//! [`read_directory`](crate::Handler::read_directory). None of that needs the `skills` feature.

// Without the `skills` feature this module is private and nothing builds a set: a router's is
// always empty.
#![cfg_attr(not(feature = "skills"), allow(dead_code, unreachable_pub))]

#[cfg(feature = "skills")]
mod load;
mod read;
mod set;
mod uri;

#[cfg(feature = "skills")]
pub use load::SkillsError;
#[cfg(feature = "skills")]
#[doc(hidden)]
pub use load::{EmbeddedFile, EmbeddedSkill, embedded};
pub use set::Skills;
