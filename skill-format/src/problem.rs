//! [`Problem`]: what is wrong with a skills folder, one mistake each, with the rule it breaks
//! and how to fix it. The `skills!` macro reports each at its string literal; the runtime's
//! loader returns them all in one error.

use crate::{MAX_SKILL_BYTES, MAX_SKILL_FILES};
use std::fmt;
use std::io;

/// One mistake in a skills folder: where it is and what rule it breaks.
#[derive(Debug)]
pub struct Problem {
    /// The file or folder, relative to the skills folder, `/`-separated (empty: the folder
    /// itself).
    pub path: String,
    /// What is wrong.
    pub kind: ProblemKind,
}

/// What is wrong, by rule.
#[derive(Debug)]
#[non_exhaustive]
pub enum ProblemKind {
    /// The skills folder cannot be read (or is not a folder).
    Root(io::Error),
    /// A file or folder inside cannot be read.
    Unreadable(io::Error),
    /// A name that is not UTF-8 (names become URIs).
    NameNotUtf8,
    /// A symbolic link whose target is outside the folder of the skill it is in (or outside
    /// the skills folder).
    Escapes {
        /// The folder it leaves: a skill's path, or empty for the skills folder.
        folder: String,
    },
    /// A symbolic link to a folder inside the skill.
    LinkedFolder,
    /// A pipe, socket or device.
    NotAFile,
    /// A file in no skill's folder.
    Stray,
    /// A file over the per-file bound.
    FileTooLarge {
        /// Its size in bytes.
        size: u64,
        /// The bound.
        max: u64,
    },
    /// A skill whose files total more than [`MAX_SKILL_BYTES`].
    SkillTooLarge {
        /// The total, in bytes.
        total: u64,
    },
    /// A skill with more than [`MAX_SKILL_FILES`] files.
    TooManyFiles {
        /// How many it has.
        count: usize,
    },
    /// A `SKILL.md` that is not UTF-8.
    NotUtf8,
    /// A `SKILL.md` that does not begin with a `---` line.
    NoFrontmatter,
    /// Frontmatter without its closing `---` line.
    UnclosedFrontmatter,
    /// Frontmatter that is not YAML.
    Yaml(String),
    /// Frontmatter that is YAML but not a mapping.
    NotAMapping,
    /// A YAML value JSON cannot carry (the extension sends frontmatter as JSON).
    NotJson {
        /// Where, as a dotted key path.
        at: String,
        /// What it is.
        what: &'static str,
    },
    /// No `name`.
    MissingName {
        /// The skill's folder name, the name to write.
        folder: String,
    },
    /// A `name`, `description` or `metadata` of the wrong type.
    WrongType {
        /// The key.
        key: &'static str,
        /// What it must be.
        must_be: &'static str,
    },
    /// A `name` that breaks the Agent Skills naming rules.
    InvalidName {
        /// The name as written.
        name: String,
        /// The rule it breaks.
        why: String,
    },
    /// A `name` other than its folder's name.
    NameMismatch {
        /// The name as written.
        name: String,
        /// The folder's name.
        folder: String,
    },
    /// No `description`.
    MissingDescription,
    /// A `description` that is empty (or only white space).
    EmptyDescription,
    /// A `description` over 1024 characters.
    LongDescription {
        /// Its length, in characters.
        chars: usize,
    },
    /// A `metadata` key under the prefix reserved for MCP extensions.
    ReservedMetadata {
        /// The key.
        key: String,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.path;
        match &self.kind {
            ProblemKind::Root(e) => write!(f, "cannot read the skills folder: {e}"),
            ProblemKind::Unreadable(e) => write!(f, "cannot read `{p}`: {e}"),
            ProblemKind::NameNotUtf8 => write!(
                f,
                "`{p}` has a name that is not UTF-8; rename it (a skill file's path becomes its URI)"
            ),
            ProblemKind::Escapes { folder } if folder.is_empty() => write!(
                f,
                "`{p}` is a symbolic link that leaves the skills folder; no skill may serve a file from outside it: copy the file in instead"
            ),
            ProblemKind::Escapes { folder } => write!(
                f,
                "`{p}` is a symbolic link that leaves the folder of skill `{folder}`; a skill serves only files inside its folder: copy the file in instead"
            ),
            ProblemKind::LinkedFolder => write!(
                f,
                "`{p}` is a symbolic link to a folder; a skill's folders must be real folders (a link could list files twice, or loop): move or copy the folder in instead"
            ),
            ProblemKind::NotAFile => write!(
                f,
                "`{p}` is neither a file nor a folder (a pipe, socket or device); remove it"
            ),
            ProblemKind::Stray => write!(
                f,
                "`{p}` is in no skill: every file under the skills folder belongs to a skill, a folder with a `SKILL.md`; move it into a skill, or add a `SKILL.md` beside it"
            ),
            ProblemKind::FileTooLarge { size, max } => write!(
                f,
                "`{p}` is {size} bytes, over the bound of {max} bytes per file; make it smaller or move it out of the skill"
            ),
            ProblemKind::SkillTooLarge { total } => write!(
                f,
                "the files of skill `{p}` total {total} bytes, over the {MAX_SKILL_BYTES} bytes (16 MiB) every host accepts per skill (SEP-2640, Limits); move files out of the skill"
            ),
            ProblemKind::TooManyFiles { count } => write!(
                f,
                "skill `{p}` has {count} files, over the {MAX_SKILL_FILES} every host accepts per skill, `SKILL.md` included (SEP-2640, Limits); merge or remove files"
            ),
            kind => fmt_frontmatter(p, kind, f),
        }
    }
}

/// The messages about a `SKILL.md` and its frontmatter.
fn fmt_frontmatter(p: &str, kind: &ProblemKind, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match kind {
        ProblemKind::NotUtf8 => write!(f, "`{p}` is not UTF-8 text; save it as UTF-8"),
        ProblemKind::NoFrontmatter => write!(
            f,
            "`{p}` has no frontmatter: a `SKILL.md` begins with a `---` line, YAML with `name` and `description`, and another `---` line; add them at the top of the file"
        ),
        ProblemKind::UnclosedFrontmatter => write!(
            f,
            "the frontmatter of `{p}` has no closing `---` line; add one after its last key"
        ),
        ProblemKind::Yaml(e) => write!(
            f,
            "the frontmatter of `{p}` is not valid YAML ({e}); fix the YAML between the `---` lines"
        ),
        ProblemKind::NotAMapping => write!(
            f,
            "the frontmatter of `{p}` is not a mapping; write one `key: value` per line, `name` and `description` first"
        ),
        ProblemKind::NotJson { at, what } => write!(
            f,
            "the frontmatter of `{p}` has {what} at `{at}`, which JSON cannot carry (the skills extension sends frontmatter as JSON); write text, a number, `true`/`false`, a list or a mapping"
        ),
        ProblemKind::MissingName { folder } => write!(
            f,
            "the frontmatter of `{p}` has no `name`; add `name: {folder}` (a skill's name is its folder's name)"
        ),
        ProblemKind::WrongType { key, must_be } => write!(
            f,
            "`{key}` in the frontmatter of `{p}` is not {must_be}; write it as {must_be}"
        ),
        ProblemKind::InvalidName { name, why } => write!(
            f,
            "`name: {name}` in `{p}` is not a skill name: {why}; a name is 1 to 64 lowercase letters (a-z), digits and hyphens, without a hyphen first, last or twice in a row"
        ),
        ProblemKind::NameMismatch { name, folder } => write!(
            f,
            "`name: {name}` in `{p}` is not its folder's name `{folder}`; a skill's name is its folder's name: rename one to match the other"
        ),
        ProblemKind::MissingDescription => write!(
            f,
            "the frontmatter of `{p}` has no `description`; add one that says what the skill does and when to use it"
        ),
        ProblemKind::EmptyDescription => write!(
            f,
            "the `description` in `{p}` is empty; say what the skill does and when to use it"
        ),
        ProblemKind::LongDescription { chars } => write!(
            f,
            "the `description` in `{p}` is {chars} characters long, over the 1024 the Agent Skills specification allows; shorten it (details belong in the body)"
        ),
        ProblemKind::ReservedMetadata { key } => write!(
            f,
            "`metadata` key `{key}` in `{p}` has the prefix `io.modelcontextprotocol/`, reserved for MCP extensions (none defines a key there yet); rename the key"
        ),
        // The file and folder messages are written by `Problem::fmt`.
        other => write!(f, "`{p}`: {other:?}"),
    }
}
