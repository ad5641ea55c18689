//! Walking a skills folder: every file and folder below it, by its path, without following a
//! symbolic link anywhere but to say what it points at. Names starting with `.` (`.git`,
//! `.DS_Store`) are left out, as hidden files are by the tools that show a folder.

use crate::{Problem, ProblemKind};
use std::fs;
use std::path::{Path, PathBuf};

/// One thing found below the skills folder.
#[derive(Debug)]
pub(crate) struct Entry {
    /// Its path below the skills folder, one name per segment.
    pub path: Vec<String>,
    /// What it is.
    pub kind: Kind,
}

/// What an [`Entry`] is.
#[derive(Debug)]
pub(crate) enum Kind {
    /// A folder (a real one).
    Folder,
    /// A file, or a symbolic link to one.
    File {
        /// Its size in bytes, from its metadata (the link's target's, for a link).
        size: u64,
        /// Where a symbolic link points, resolved; `None` for a plain file.
        link: Option<PathBuf>,
    },
    /// A symbolic link to a folder, resolved (never followed).
    LinkedFolder(PathBuf),
    /// A pipe, socket or device.
    Other,
}

/// Every entry below `root` (a canonical folder), each folder's entries in name order, and the
/// problems met on the way (unreadable entries, names that are not UTF-8).
pub(crate) fn walk(root: &Path) -> (Vec<Entry>, Vec<Problem>) {
    let mut entries = Vec::new();
    let mut problems = Vec::new();
    let mut folders: Vec<Vec<String>> = vec![Vec::new()];
    while let Some(folder) = folders.pop() {
        let at = join(root, &folder);
        let names = match list(&at) {
            Ok(names) => names,
            Err(e) => {
                problems.push(problem(&folder, ProblemKind::Unreadable(e)));
                continue;
            }
        };
        for name in names {
            let mut path = folder.clone();
            let Some(name) = name.to_str() else {
                path.push(name.to_string_lossy().into_owned());
                problems.push(problem(&path, ProblemKind::NameNotUtf8));
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            path.push(name.to_owned());
            match kind(&at.join(name)) {
                Ok(Kind::Folder) => {
                    folders.push(path.clone());
                    entries.push(Entry {
                        path,
                        kind: Kind::Folder,
                    });
                }
                Ok(kind) => entries.push(Entry { path, kind }),
                Err(e) => problems.push(problem(&path, ProblemKind::Unreadable(e))),
            }
        }
    }
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    (entries, problems)
}

/// The names in folder `at`, sorted.
fn list(at: &Path) -> std::io::Result<Vec<std::ffi::OsString>> {
    let mut names = fs::read_dir(at)?
        .map(|e| e.map(|e| e.file_name()))
        .collect::<Result<Vec<_>, _>>()?;
    names.sort();
    Ok(names)
}

/// What is at `path`, looking at a symbolic link's target without following it further.
fn kind(path: &Path) -> std::io::Result<Kind> {
    let meta = fs::symlink_metadata(path)?;
    if meta.is_dir() {
        return Ok(Kind::Folder);
    }
    if meta.is_file() {
        return Ok(Kind::File {
            size: meta.len(),
            link: None,
        });
    }
    if !meta.is_symlink() {
        return Ok(Kind::Other);
    }
    let target = fs::canonicalize(path)?;
    let meta = fs::metadata(&target)?;
    Ok(if meta.is_dir() {
        Kind::LinkedFolder(target)
    } else if meta.is_file() {
        Kind::File {
            size: meta.len(),
            link: Some(target),
        }
    } else {
        Kind::Other
    })
}

/// `root` joined with each segment of `path`.
pub(crate) fn join(root: &Path, path: &[String]) -> PathBuf {
    let mut out = root.to_path_buf();
    out.extend(path);
    out
}

/// A problem at `path`.
pub(crate) fn problem(path: &[String], kind: ProblemKind) -> Problem {
    Problem {
        path: path.join("/"),
        kind,
    }
}
