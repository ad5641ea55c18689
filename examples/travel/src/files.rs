//! `trip_files`' question: the travel workspace's folders from the client's roots (`#[roots]`),
//! or, for a client without roots (or one that shares no local folder), from the tool's
//! `folders` argument or the server's `TRAVEL_WORKSPACE`; never a guessed directory. And the listing of what is in them.

use rondo_mcp::prelude::*;
use rondo_mcp::{Fallback, roots};
use std::path::{Path, PathBuf};

/// The workspace's three kinds of folder, by name.
pub const KINDS: [(&str, &str); 3] = [
    ("travel-planning", "Itineraries"),
    ("travel-templates", "Templates"),
    ("client-documents", "Client documents"),
];

/// The most files listed per folder.
pub const MAX_FILES_PER_FOLDER: usize = 200;

/// The folders to list: the client's roots, else the argument, else the configuration.
#[roots(fallback = given_or_configured)]
pub fn workspace(folders: &[String], configured: &Option<String>) -> Roots;

/// What `trip_files` says when it has no folder to list.
pub const NO_WORKSPACE: &str = "No travel workspace: this client shares no roots. Pass `folders` \
     (for example [\"/path/to/workspace\"]), or start the server with \
     TRAVEL_WORKSPACE=/path/to/workspace.";

/// The fallback: the `folders` argument, else `TRAVEL_WORKSPACE`; with neither, an `isError`
/// result saying how to give one.
pub fn given_or_configured(folders: &[String], configured: &Option<String>) -> Fallback<Roots> {
    match given_or_configured_folders(folders, configured) {
        Some(roots) => Fallback::Answer(roots),
        None => Fallback::fail(NO_WORKSPACE),
    }
}

/// The `folders` argument, else `TRAVEL_WORKSPACE`, else none. Also what `trip_files` lists for
/// a client that declares roots but shares no local folder (the Inspector's CLI lists `[]`).
pub fn given_or_configured_folders(
    folders: &[String],
    configured: &Option<String>,
) -> Option<Roots> {
    if !folders.is_empty() {
        return Some(Roots::from_paths(folders));
    }
    configured.as_ref().map(|dir| Roots::from_paths([dir]))
}

/// What is in the workspace under these folders: each folder that is itself one of the three
/// kinds, and each kind found directly inside a folder. Files only, sorted, at most
/// [`MAX_FILES_PER_FOLDER`] each.
pub fn listing(folders: &[PathBuf]) -> String {
    let mut sections = Vec::new();
    for folder in folders {
        for (dir, label) in KINDS {
            let candidate = if folder.file_name().is_some_and(|n| n == dir) {
                folder.clone()
            } else {
                folder.join(dir)
            };
            if let Some(files) = files_in(&candidate) {
                sections.push(format!("{label} ({}):\n{}", candidate.display(), files));
            }
        }
    }
    let searched: Vec<String> = folders.iter().map(|f| f.display().to_string()).collect();
    if sections.is_empty() {
        return format!(
            "No travel-planning/, travel-templates/ or client-documents/ folder in {}.",
            searched.join(", ")
        );
    }
    sections.join("\n")
}

fn files_in(dir: &Path) -> Option<String> {
    let entries = std::fs::read_dir(dir).ok()?;
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let more = names.len().saturating_sub(MAX_FILES_PER_FOLDER);
    names.truncate(MAX_FILES_PER_FOLDER);
    let mut lines: Vec<String> = names.iter().map(|n| format!("  - {n}")).collect();
    if lines.is_empty() {
        lines.push("  (empty)".into());
    }
    if more > 0 {
        lines.push(format!("  ... and {more} more"));
    }
    Some(lines.join("\n"))
}
