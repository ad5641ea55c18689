//! From the entries of a walk to a checked [`Bundle`]: which folders are skills, which skill
//! each file belongs to, every rule of the folder (links, strays, sizes, limits) and of each
//! `SKILL.md` checked before any file is hashed, and then the digests.

use crate::walk::{Entry, Kind, join, problem};
use crate::{
    Bundle, File, Limits, MAX_SKILL_BYTES, MAX_SKILL_FILES, Problem, ProblemKind, SKILL_FILE,
    Skill, digest, frontmatter, rules,
};
use serde_json::{Map, Value};
use std::fs;
use std::path::{Path, PathBuf};

/// A file that passed the folder rules, not yet read.
struct Accepted {
    /// Its path below the skills folder.
    path: Vec<String>,
    /// Its size, from its metadata.
    size: u64,
    /// The canonical folder of its innermost skill.
    within: PathBuf,
}

/// A skill whose `SKILL.md` passed the rules, its files not yet read.
struct Checked {
    /// Its folder below the skills folder.
    path: Vec<String>,
    /// Its frontmatter.
    frontmatter: Map<String, Value>,
    /// Its files, as indices into the accepted files.
    members: Vec<usize>,
}

/// The skill folders among `entries`: the folders holding a `SKILL.md` (the skills folder
/// itself never is one: a skill's path has at least one segment).
fn skill_paths(entries: &[Entry]) -> Vec<Vec<String>> {
    entries
        .iter()
        .filter(|e| matches!(e.kind, Kind::File { .. }))
        .filter(|e| e.path.len() > 1 && e.path.last().is_some_and(|n| n == SKILL_FILE))
        .map(|e| e.path[..e.path.len() - 1].to_vec())
        .collect()
}

/// The innermost skill whose folder holds `path`.
fn owner<'a>(skills: &'a [Vec<String>], path: &[String]) -> Option<&'a Vec<String>> {
    skills
        .iter()
        .filter(|s| s.len() < path.len() && path.starts_with(s))
        .max_by_key(|s| s.len())
}

/// Checks the walked `entries` of the canonical `root` and, when nothing is wrong, reads and
/// hashes every file; `problems` (from the walk) are reported with the rest.
pub(crate) fn assemble(
    root: &Path,
    entries: Vec<Entry>,
    mut problems: Vec<Problem>,
    limits: &Limits,
) -> Result<Bundle, Vec<Problem>> {
    let skills = skill_paths(&entries);
    let mut files: Vec<Accepted> = Vec::new();
    let mut folders = Vec::new();
    for entry in entries {
        let owner = owner(&skills, &entry.path);
        let within = join(root, owner.map_or(&[][..], Vec::as_slice));
        let escapes = || ProblemKind::Escapes {
            folder: owner.map(|o| o.join("/")).unwrap_or_default(),
        };
        match entry.kind {
            Kind::Folder => folders.push(entry.path),
            Kind::Other => problems.push(problem(&entry.path, ProblemKind::NotAFile)),
            Kind::LinkedFolder(target) if !target.starts_with(&within) => {
                problems.push(problem(&entry.path, escapes()));
            }
            Kind::LinkedFolder(_) => problems.push(problem(&entry.path, ProblemKind::LinkedFolder)),
            Kind::File { .. } if owner.is_none() => {
                problems.push(problem(&entry.path, ProblemKind::Stray));
            }
            Kind::File {
                link: Some(target), ..
            } if !target.starts_with(&within) => problems.push(problem(&entry.path, escapes())),
            Kind::File { size, .. } if size > limits.max_file_bytes => {
                let max = limits.max_file_bytes;
                problems.push(problem(
                    &entry.path,
                    ProblemKind::FileTooLarge { size, max },
                ));
            }
            Kind::File { size, .. } => files.push(Accepted {
                path: entry.path,
                size,
                within,
            }),
        }
    }
    let mut bundle_skills = Vec::new();
    for path in &skills {
        let members: Vec<usize> = (0..files.len())
            .filter(|&i| files[i].path.starts_with(path))
            .collect();
        problems.extend(check_limits(path, &members, &files));
        match read_frontmatter(root, path, &files) {
            Ok(frontmatter) => bundle_skills.push(Checked {
                path: path.clone(),
                frontmatter,
                members,
            }),
            Err(mut found) => problems.append(&mut found),
        }
    }
    if !problems.is_empty() {
        problems.sort_by(|a, b| a.path.cmp(&b.path));
        return Err(problems);
    }
    hash(root, files, folders, bundle_skills)
}

/// The per-skill limits of SEP-2640 over the files of skill `path` (its `members`, those of
/// the skills nested in it included).
fn check_limits(path: &[String], members: &[usize], files: &[Accepted]) -> Vec<Problem> {
    let mut out = Vec::new();
    if members.len() > MAX_SKILL_FILES {
        let count = members.len();
        out.push(problem(path, ProblemKind::TooManyFiles { count }));
    }
    let total: u64 = members.iter().map(|&i| files[i].size).sum();
    if total > MAX_SKILL_BYTES {
        out.push(problem(path, ProblemKind::SkillTooLarge { total }));
    }
    out
}

/// The checked frontmatter of skill `path`, whose `SKILL.md` is among `files` unless it was
/// refused already (too large, a link that leaves): then its own problem says so.
fn read_frontmatter(
    root: &Path,
    path: &[String],
    files: &[Accepted],
) -> Result<Map<String, Value>, Vec<Problem>> {
    let mut at = path.to_vec();
    at.push(SKILL_FILE.to_owned());
    if !files.iter().any(|f| f.path == at) {
        return Err(Vec::new());
    }
    let one = |kind| vec![problem(&at, kind)];
    let bytes = fs::read(join(root, &at)).map_err(|e| one(ProblemKind::Unreadable(e)))?;
    let text = std::str::from_utf8(&bytes).map_err(|_| one(ProblemKind::NotUtf8))?;
    let map = frontmatter::parse(text).map_err(one)?;
    let folder = path.last().map_or("", String::as_str);
    let found = rules::check(&map, folder);
    if found.is_empty() {
        Ok(map)
    } else {
        Err(found.into_iter().map(|k| problem(&at, k)).collect())
    }
}

/// Reads and hashes every file, and builds the bundle.
fn hash(
    root: &Path,
    files: Vec<Accepted>,
    folders: Vec<Vec<String>>,
    skills: Vec<Checked>,
) -> Result<Bundle, Vec<Problem>> {
    let mut out = Vec::with_capacity(files.len());
    let mut problems = Vec::new();
    for Accepted { path, within, .. } in files {
        let source = join(root, &path);
        match fs::read(&source) {
            Ok(bytes) => out.push(File {
                mime_type: mime_type(&path, &bytes),
                size: bytes.len() as u64,
                digest: digest(&bytes),
                path,
                source,
                within,
            }),
            Err(e) => problems.push(problem(&path, ProblemKind::Unreadable(e))),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let skills = skills
        .into_iter()
        .map(|c| Skill {
            folder: join(root, &c.path),
            files: manifest_order(&c.path, c.members, &out),
            path: c.path,
            frontmatter: c.frontmatter,
        })
        .collect();
    Ok(Bundle {
        skills,
        files: out,
        folders,
    })
}

/// A skill's files with its own `SKILL.md` first, the rest in path order.
fn manifest_order(path: &[String], mut members: Vec<usize>, files: &[File]) -> Vec<usize> {
    let own = |i: &usize| files[*i].path.len() == path.len() + 1 && files[*i].is_skill_md();
    members.sort_by_key(|i| !own(i));
    members
}

/// The MIME type of the file at `path`: `text/markdown` for a `SKILL.md`, else by its
/// extension, else `text/plain` for UTF-8 text and `application/octet-stream` for the rest.
fn mime_type(path: &[String], bytes: &[u8]) -> String {
    let name = path.last().map_or("", String::as_str);
    if name == SKILL_FILE {
        return "text/markdown".into();
    }
    match mime_guess::from_path(name).first_raw() {
        Some(mime) => mime.to_owned(),
        None if std::str::from_utf8(bytes).is_ok() => "text/plain".into(),
        None => "application/octet-stream".into(),
    }
}
