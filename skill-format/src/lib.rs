//! The Agent Skills folder format as `rondo-mcp` reads it, for the MCP Skills extension
//! (`io.modelcontextprotocol/skills`, SEP-2640). Use it through `rondo-mcp` (feature
//! `skills`): its `Skills::from_dir` calls [`load`] when a server starts, and its `skills!`
//! macro calls it when the crate compiles, so the same rules hold both ways.
//!
//! A skills folder holds skills: a skill is a folder with a `SKILL.md` (YAML frontmatter with
//! `name` and `description`, then Markdown) and any supporting files and folders. A folder
//! without a `SKILL.md` may group skills (`acme/billing/refunds/SKILL.md`: the skill
//! `refunds` under the prefix `acme/billing`), and a skill may hold other skills, whose files
//! are then its files too (SEP-2640, "Nested Skills"). [`load`] checks:
//!
//! - every `SKILL.md`: UTF-8, frontmatter between its first two `---` lines ([`frontmatter`]),
//!   and the Agent Skills rules on it ([`rules`]): `name` equal to the folder's name;
//! - every file: in a skill (no stray file), no symbolic link whose target leaves its skill's
//!   folder, no link to a folder, no pipe or device, at most [`Limits::max_file_bytes`];
//! - every skill: at most [`MAX_SKILL_FILES`] files and [`MAX_SKILL_BYTES`] in all;
//!
//! and then hashes every file ([`digest`]). Names starting with `.` are left out.
//!
//! ```
//! # let dir = std::env::temp_dir().join(format!("rondo-skill-format-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(dir.join("pdf")).unwrap();
//! std::fs::write(dir.join("pdf/SKILL.md"), "---\nname: pdf\ndescription: Fills PDF forms.\n---\n# PDF\n").unwrap();
//! let bundle = rondo_mcp_skill_format::load(&dir, &Default::default()).unwrap();
//! assert_eq!(bundle.skills[0].path, ["pdf"]);
//! assert_eq!(bundle.skills[0].frontmatter["description"], "Fills PDF forms.");
//! assert!(bundle.files[0].digest.starts_with("sha256:"));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

#![warn(missing_docs)]

mod bundle;
pub mod frontmatter;
mod problem;
pub mod rules;
mod walk;

pub use problem::{Problem, ProblemKind};

use serde_json::{Map, Value};
use sha2::{Digest as _, Sha256};
use std::fs;
use std::path::{Path, PathBuf};

/// The file that makes a folder a skill.
pub const SKILL_FILE: &str = "SKILL.md";
/// The most files a skill may have, its `SKILL.md` included: what every host accepts
/// (SEP-2640, "Limits").
pub const MAX_SKILL_FILES: usize = 512;
/// The most bytes a skill's files may have in all: 16 MiB, what every host accepts
/// (SEP-2640, "Limits").
pub const MAX_SKILL_BYTES: u64 = 16 * 1024 * 1024;

/// What a load may be told beyond the fixed rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// The largest file, in bytes (default [`MAX_SKILL_BYTES`], the whole of a skill).
    pub max_file_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: MAX_SKILL_BYTES,
        }
    }
}

/// A checked skills folder: its skills, files and folders, each in path order.
#[derive(Debug, Clone)]
pub struct Bundle {
    /// The skills.
    pub skills: Vec<Skill>,
    /// Every file of every skill.
    pub files: Vec<File>,
    /// Every folder below the skills folder (skills, their subfolders, and the folders that
    /// group skills), one name per segment.
    pub folders: Vec<Vec<String>>,
}

/// One skill of a [`Bundle`].
#[derive(Debug, Clone)]
pub struct Skill {
    /// Its folder below the skills folder, one name per segment; the last is its name.
    pub path: Vec<String>,
    /// Its `SKILL.md`'s frontmatter, as JSON, checked.
    pub frontmatter: Map<String, Value>,
    /// Its files, as indices into [`Bundle::files`]: its `SKILL.md` first, then every other
    /// file in its folder (nested skills' files included) in path order.
    pub files: Vec<usize>,
    /// Its folder on disk, canonical.
    pub folder: PathBuf,
}

/// One file of a [`Bundle`].
#[derive(Debug, Clone)]
pub struct File {
    /// Its path below the skills folder, one name per segment.
    pub path: Vec<String>,
    /// Its size in bytes.
    pub size: u64,
    /// The SHA-256 of its bytes, `sha256:` and 64 lowercase hex digits.
    pub digest: String,
    /// Its MIME type.
    pub mime_type: String,
    /// Where it is read (below the canonical skills folder; a link there is followed).
    pub source: PathBuf,
    /// The canonical folder of the innermost skill it is in: a read of it that resolves
    /// outside this folder (the file was replaced by a link since) must be refused.
    pub within: PathBuf,
}

impl File {
    /// Whether this is a `SKILL.md`.
    pub fn is_skill_md(&self) -> bool {
        self.path.last().is_some_and(|n| n == SKILL_FILE)
    }
}

/// Reads and checks the skills folder `root`: every problem found, or the [`Bundle`].
pub fn load(root: &Path, limits: &Limits) -> Result<Bundle, Vec<Problem>> {
    let root_problem = |e| {
        vec![Problem {
            path: String::new(),
            kind: ProblemKind::Root(e),
        }]
    };
    let root = fs::canonicalize(root).map_err(root_problem)?;
    if !root.is_dir() {
        return Err(root_problem(std::io::Error::new(
            std::io::ErrorKind::NotADirectory,
            "not a folder",
        )));
    }
    let (entries, problems) = walk::walk(&root);
    bundle::assemble(&root, entries, problems, limits)
}

/// The digest of `bytes` as SEP-2640 writes it: `sha256:` and 64 lowercase hex digits.
pub fn digest(bytes: &[u8]) -> String {
    let sum: [u8; 32] = Sha256::digest(bytes).into();
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for b in sum {
        out.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        out.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
    }
    out
}

#[cfg(test)]
mod tests;
