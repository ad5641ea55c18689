//! The two ways a [`Skills`] is built (feature `skills`): [`Skills::from_dir`] reads and checks
//! a folder when the server starts, and the `skills!` macro's expansion hands over what it
//! checked and embedded at compile time ([`embedded`]). Both go through
//! `rondo-mcp-skill-format`, so the rules are the same.

use super::read::{Served, Source};
use super::set::{FilePart, SkillPart, Skills};
use crate::protocol::JsonObject;
use rondo_mcp_skill_format::{Bundle, Limits, Problem};
use std::fmt;
use std::path::{Path, PathBuf};

impl Skills {
    /// Reads the skills folder `dir` (relative to the current directory, or absolute) and
    /// checks it: each `<name>/SKILL.md` with its frontmatter, every supporting file, every
    /// rule the [module documentation](mod@crate::skills) lists. Every file is hashed now; each
    /// `resources/read` reads the file again and serves it only while it is unchanged.
    ///
    /// ```no_run
    /// use rondo_mcp::prelude::*;
    /// use rondo_mcp::Skills;
    ///
    /// # fn main() -> Result<(), rondo_mcp::skills::SkillsError> {
    /// let router = Router::new(ServerInfo::new("docs", "1.0.0")).skills(Skills::from_dir("skills")?);
    /// # let _ = router;
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// Every problem found, each naming its file and the rule it breaks: a `SKILL.md` without
    /// frontmatter, a missing or invalid `name` or `description`, a name other than its
    /// folder's, a file in no skill, a link that leaves its skill's folder, a file or skill
    /// over its size bound, a folder that cannot be read.
    pub fn from_dir(dir: impl AsRef<Path>) -> Result<Skills, SkillsError> {
        let dir = dir.as_ref();
        let bundle = rondo_mcp_skill_format::load(dir, &Limits::default()).map_err(|problems| {
            SkillsError {
                dir: dir.to_path_buf(),
                problems,
            }
        })?;
        Ok(from_bundle(bundle))
    }
}

/// The set of a checked folder, its files served from disk.
fn from_bundle(bundle: Bundle) -> Skills {
    let files = bundle
        .files
        .into_iter()
        .map(|f| FilePart {
            path: f.path,
            served: Served {
                mime_type: f.mime_type,
                size: f.size,
                digest: f.digest,
                source: Source::Disk {
                    path: f.source,
                    within: f.within,
                },
            },
        })
        .collect();
    let skills = bundle
        .skills
        .into_iter()
        .map(|s| SkillPart {
            path: s.path,
            frontmatter: s.frontmatter,
            files: s.files,
        })
        .collect();
    Skills::assemble(skills, files, bundle.folders)
}

/// Why a skills folder cannot be served: every problem found, each naming its file (relative
/// to the folder) and the rule it breaks, and how to fix it.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("rondo-skills-error-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(dir.join("pdf")).unwrap();
/// std::fs::write(dir.join("pdf/SKILL.md"), "# PDF tools\n").unwrap();
/// let error = rondo_mcp::Skills::from_dir(&dir).unwrap_err();
/// assert!(error.to_string().contains("`pdf/SKILL.md` has no frontmatter"));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug)]
pub struct SkillsError {
    dir: PathBuf,
    problems: Vec<Problem>,
}

impl SkillsError {
    /// The folder that was read.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
    /// Each problem's message, in path order.
    pub fn messages(&self) -> impl Iterator<Item = String> + '_ {
        self.problems.iter().map(ToString::to_string)
    }
}

impl fmt::Display for SkillsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot serve the skills in `{}`", self.dir.display())?;
        for p in &self.problems {
            write!(f, "\n  - {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SkillsError {}

/// One skill the `skills!` macro embedded.
#[doc(hidden)]
#[derive(Debug)]
pub struct EmbeddedSkill {
    /// Its folder below the skills folder.
    pub path: &'static [&'static str],
    /// Its frontmatter, as the JSON text the macro wrote.
    pub frontmatter: &'static str,
    /// Its files, as indices into the embedded files: its `SKILL.md` first.
    pub files: &'static [usize],
}

/// One file the `skills!` macro embedded, with the digest it took.
#[doc(hidden)]
#[derive(Debug)]
pub struct EmbeddedFile {
    /// Its path below the skills folder.
    pub path: &'static [&'static str],
    /// Its bytes (`include_bytes!`).
    pub bytes: &'static [u8],
    /// `sha256:` and 64 hex digits, of `bytes`.
    pub digest: &'static str,
    /// Its MIME type.
    pub mime_type: &'static str,
}

/// `skills!`: the set of what the macro checked and embedded.
///
/// # Panics
/// When a frontmatter is not a JSON object: the macro writes each with `serde_json` from the
/// object it checked, so this is a bug in the macro, raised at start-up.
#[doc(hidden)]
pub fn embedded(skills: &[EmbeddedSkill], files: &[EmbeddedFile], folders: &[&[&str]]) -> Skills {
    let owned = |path: &[&str]| path.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let files = files
        .iter()
        .map(|f| FilePart {
            path: owned(f.path),
            served: Served {
                mime_type: f.mime_type.to_owned(),
                size: f.bytes.len() as u64,
                digest: f.digest.to_owned(),
                source: Source::Embedded(f.bytes),
            },
        })
        .collect();
    let skills = skills
        .iter()
        .map(|s| SkillPart {
            path: owned(s.path),
            frontmatter: serde_json::from_str::<JsonObject>(s.frontmatter)
                .unwrap_or_else(|e| panic!("skills!: the frontmatter of {:?} is not a JSON object ({e}): a bug in the macro", s.path)),
            files: s.files.to_vec(),
        })
        .collect();
    Skills::assemble(skills, files, folders.iter().map(|f| owned(f)).collect())
}
