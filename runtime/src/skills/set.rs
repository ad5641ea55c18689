//! [`Skills`]: the skills a server serves, built once at start from a checked folder (the
//! runtime's loader or the macro's embedding), and everything the extension's methods and
//! `resources/read` answer from it: the entries, the files by URI, the directories by URI and
//! the `SKILL.md` resources `resources/list` shows.

use super::read::Served;
use super::uri;
use crate::protocol::{
    DIRECTORY_MIME_TYPE, Error, JsonObject, ReadResourceResult, Resource, Skill, SkillResource,
    SkillResources,
};
use crate::sets::ensure_unique;
use std::collections::HashMap;
use std::future::Future;

/// The skills a server serves over the Skills extension (SEP-2640): each skill's entry
/// (`skills/list`, `skills/get`), every file of every skill (`resources/read`), every folder
/// (`resources/directory/read`) and each `SKILL.md` in `resources/list`.
///
/// Build it with [`Skills::from_dir`] at start or [`skills!`](crate::skills!) at compile time
/// (feature `skills`), and serve it with [`Router::skills`](crate::Router::skills). The
/// [module documentation](mod@crate::skills) says what is served, and how.
#[derive(Default, Clone)]
pub struct Skills {
    /// The entries, in the order of their folders' paths.
    entries: Vec<Skill>,
    /// A skill's `SKILL.md` URI -> its index in `entries`.
    by_uri: HashMap<String, usize>,
    /// Every file's URI -> how it is served.
    files: HashMap<String, Served>,
    /// Every folder's URI -> its direct children, in URI order.
    dirs: HashMap<String, Vec<Resource>>,
    /// Each `SKILL.md` as `resources/list` shows it, in the order of `entries`.
    listed: Vec<Resource>,
}

impl std::fmt::Debug for Skills {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(|s| &s.uri))
            .finish()
    }
}

/// One file of a set being built: its path below the skills folder and how it is served.
pub(crate) struct FilePart {
    /// Its path, one name per segment.
    pub path: Vec<String>,
    /// How it is served.
    pub served: Served,
}

/// One skill of a set being built.
pub(crate) struct SkillPart {
    /// Its folder, one name per segment (the last is its name).
    pub path: Vec<String>,
    /// Its checked frontmatter.
    pub frontmatter: JsonObject,
    /// Its files, as indices into the files: its `SKILL.md` first.
    pub files: Vec<usize>,
}

impl Skills {
    /// The set of these skills, files and folders (all already checked).
    pub(crate) fn assemble(
        skills: Vec<SkillPart>,
        files: Vec<FilePart>,
        folders: Vec<Vec<String>>,
    ) -> Skills {
        let uris: Vec<String> = files.iter().map(|f| uri::file(&f.path)).collect();
        let mut set = Skills::default();
        for part in skills {
            let resources = part.files.iter().map(|&i| SkillResource {
                uri: uris[i].clone(),
                digest: files[i].served.digest.clone(),
                size: files[i].served.size,
            });
            let skill = Skill {
                uri: uri::skill_md(&part.path),
                frontmatter: part.frontmatter,
                resources: SkillResources::Files(resources.collect()),
            };
            set.listed
                .push(listed(&skill, files[part.files[0]].served.size));
            set.by_uri.insert(skill.uri.clone(), set.entries.len());
            set.entries.push(skill);
        }
        set.dirs = directories(&folders, &files, &uris, &set.listed);
        set.files = uris
            .into_iter()
            .zip(files)
            .map(|(uri, f)| (uri, f.served))
            .collect();
        set
    }

    /// Whether the set has no skill.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many skills the set has.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entries, in order (what `skills/list` pages).
    pub fn entries(&self) -> &[Skill] {
        &self.entries
    }

    /// The entry of the skill whose `SKILL.md` is at `uri`.
    pub fn get(&self, uri: &str) -> Option<&Skill> {
        self.by_uri.get(uri).map(|&i| &self.entries[i])
    }

    /// The `SKILL.md` resources `resources/list` shows, in order.
    pub(crate) fn listed(&self) -> &[Resource] {
        &self.listed
    }

    /// The children of the directory at `uri`: `Err(-32602)` when `uri` is not one.
    pub(crate) fn directory(&self, uri: &str) -> Result<&[Resource], Error> {
        self.dirs
            .get(uri)
            .map(Vec::as_slice)
            .ok_or_else(|| Error::not_a_directory(uri))
    }

    /// Reads the file at `uri`, when the set has one there.
    pub(crate) fn read(
        &self,
        uri: &str,
    ) -> Option<impl Future<Output = Result<ReadResourceResult, Error>> + Send + 'static> {
        let served = self.files.get(uri)?.clone();
        Some(super::read::read(uri.to_owned(), served))
    }

    /// Whether the set serves a file at `uri`.
    pub(crate) fn serves(&self, uri: &str) -> bool {
        self.files.contains_key(uri)
    }

    /// Adds the skills of `other`.
    ///
    /// # Panics
    /// When a file URI is in both (the same folder added twice, say).
    pub(crate) fn merge(&mut self, other: Skills) {
        for uri in other.files.keys() {
            ensure_unique("skill file URI", uri, self.files.keys().map(String::as_str));
        }
        self.files.extend(other.files);
        for (uri, children) in other.dirs {
            let mine = self.dirs.entry(uri).or_default();
            mine.extend(children);
            mine.sort_by(|a, b| a.uri.cmp(&b.uri));
            mine.dedup_by(|a, b| a.uri == b.uri);
        }
        for skill in other.entries {
            self.by_uri.insert(skill.uri.clone(), self.entries.len());
            self.entries.push(skill);
        }
        self.listed.extend(other.listed);
    }
}

/// A `SKILL.md` as a resource: named and described from its frontmatter (SEP-2640, "Resource
/// Metadata"), `text/markdown`, with its size.
fn listed(skill: &Skill, size: u64) -> Resource {
    let text = |key: &str| {
        skill
            .frontmatter
            .get(key)
            .and_then(|v| v.as_str())
            .map(str::to_owned)
    };
    let mut r = Resource::new(skill.uri.clone(), text("name").unwrap_or_default());
    r.description = text("description");
    r.mime_type = Some("text/markdown".into());
    r.size = Some(size);
    r
}

/// Every folder's URI and its direct children, files (a `SKILL.md` as `resources/list` shows
/// it) and folders (`inode/directory`), in URI order.
fn directories(
    folders: &[Vec<String>],
    files: &[FilePart],
    uris: &[String],
    listed: &[Resource],
) -> HashMap<String, Vec<Resource>> {
    let mut dirs: HashMap<String, Vec<Resource>> = folders
        .iter()
        .map(|f| (uri::folder(f), Vec::new()))
        .collect();
    for folder in folders.iter().filter(|f| f.len() > 1) {
        let mut child = Resource::new(uri::folder(folder), folder[folder.len() - 1].clone());
        child.mime_type = Some(DIRECTORY_MIME_TYPE.into());
        push_child(&mut dirs, &folder[..folder.len() - 1], child);
    }
    for (file, uri) in files.iter().zip(uris) {
        let Some((name, parent)) = file.path.split_last() else {
            continue;
        };
        let child = match listed.iter().find(|r| r.uri == *uri) {
            Some(r) => r.clone(),
            None => {
                let mut r = Resource::new(uri.clone(), name.clone());
                r.mime_type = Some(file.served.mime_type.clone());
                r.size = Some(file.served.size);
                r
            }
        };
        push_child(&mut dirs, parent, child);
    }
    for children in dirs.values_mut() {
        children.sort_by(|a, b| a.uri.cmp(&b.uri));
    }
    dirs
}

fn push_child(dirs: &mut HashMap<String, Vec<Resource>>, parent: &[String], child: Resource) {
    if let Some(children) = dirs.get_mut(&uri::folder(parent)) {
        children.push(child);
    }
}
