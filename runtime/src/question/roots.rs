//! [`Roots`]: the folders a client shares (`roots/list`), what a `#[roots]` question answers.
//!
//! Roots are advisory: they say which folders the user meant the server to work in, and the
//! operating system, not the roots, decides what the server can read or write. Roots are
//! deprecated in 2026-07-28 and many clients never implemented them, so every roots question has
//! a fallback: folders from a tool argument or the server's configuration, never a guess (no
//! current directory, no home directory).

use super::{Failed, Read, Rendered};
use crate::cx::AskError;
use crate::protocol::{ClientCapabilities, InputRequest, ListRootsResult, Revision, Root, echo};
use percent_encoding::{AsciiSet, CONTROLS, percent_decode_str, utf8_percent_encode};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The client's roots: `file://` URIs, each with an optional name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Roots {
    roots: Vec<Root>,
}

impl Roots {
    /// Roots for these local folders (a fallback's answer: folders from a tool argument or the
    /// server's configuration). Relative paths are kept as given; make them absolute first.
    pub fn from_paths<P: AsRef<Path>>(paths: impl IntoIterator<Item = P>) -> Self {
        let roots = paths
            .into_iter()
            .map(|p| Root {
                uri: file_uri(p.as_ref()),
                name: p
                    .as_ref()
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned()),
            })
            .collect();
        Roots { roots }
    }

    /// The roots as the client listed them.
    pub fn roots(&self) -> &[Root] {
        &self.roots
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }

    /// The roots' local folders, in order. A root that is not a `file://` URI on this machine,
    /// or not a well-formed one, is skipped with a log line (2026-07-28 says every root is a
    /// `file://` URI; a client may still send others).
    pub fn paths(&self) -> Vec<PathBuf> {
        self.roots
            .iter()
            .filter_map(|root| match local_path(&root.uri) {
                Ok(path) => Some(path),
                Err(why) => {
                    tracing::info!(uri = echo(&root.uri).as_str(), why, "root skipped");
                    None
                }
            })
            .collect()
    }
}

impl From<Vec<Root>> for Roots {
    fn from(roots: Vec<Root>) -> Self {
        Roots { roots }
    }
}

/// Characters escaped in a path written into a `file://` URI: controls, space and the URI
/// delimiters that may appear in file names.
const PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}');

/// `file:///a/b` for `/a/b` (Windows `C:\a` becomes `file:///C:/a`).
fn file_uri(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let text = if text.starts_with('/') {
        text
    } else {
        format!("/{text}")
    };
    format!("file://{}", utf8_percent_encode(&text, PATH))
}

/// The local path of a `file://` URI: an empty host or `localhost`, then an absolute path,
/// percent-decoded. `file:///C:/a` is `C:/a` on Windows.
fn local_path(uri: &str) -> Result<PathBuf, &'static str> {
    let rest = uri.strip_prefix("file://").ok_or("not a file:// URI")?;
    let (host, path) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => return Err("no path"),
    };
    if !(host.is_empty() || host.eq_ignore_ascii_case("localhost")) {
        return Err("a file on another host");
    }
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let decoded = percent_decode_str(path)
        .decode_utf8()
        .map_err(|_| "not UTF-8 once decoded")?;
    if decoded.contains('\0') {
        return Err("a NUL in the path");
    }
    Ok(PathBuf::from(windows_drive(&decoded).unwrap_or(&decoded)))
}

/// `C:/a` for `/C:/a` on Windows, where a drive letter follows the URI's leading slash.
fn windows_drive(path: &str) -> Option<&str> {
    let b = path.as_bytes();
    let drive = cfg!(windows) && b.len() >= 3 && b[0] == b'/' && b[2] == b':';
    (drive && b[1].is_ascii_alphabetic()).then(|| &path[1..])
}

/// A roots question renders `roots/list`, which takes no parameters, and answers `Roots`: the
/// type stands for both (an empty `Roots` is the request).
impl Rendered for Roots {
    type Answer = Roots;

    fn needs() -> ClientCapabilities {
        ClientCapabilities::with_roots()
    }

    fn consent(&self) -> bool {
        false
    }

    fn request(&self, _revision: Revision) -> InputRequest {
        InputRequest::ListRoots
    }

    fn read(&self, _key: &'static str, _sent: &InputRequest, answer: Value) -> Read<Roots> {
        match serde_json::from_value::<ListRootsResult>(answer) {
            Ok(r) => Read::Answer(r.roots.into()),
            Err(e) => Read::AskAgain(format!("the answer is not a roots list: {}", echo(e))),
        }
    }

    /// Roots are optional: a client that fails to list them gets the fallback.
    fn failed(&self, key: &'static str, why: &AskError) -> Failed<Roots> {
        tracing::info!(question = key, %why, "roots failed; taking the fallback");
        Failed::Fallback
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_become_paths_and_others_are_skipped() {
        let roots = Roots::from(vec![
            Root {
                uri: "file:///home/ada/my%20project".into(),
                name: Some("My Project".into()),
            },
            Root {
                uri: "file://localhost/srv/data".into(),
                name: None,
            },
            Root {
                uri: "https://example.com/repo".into(),
                name: None,
            },
            Root {
                uri: "file://fileserver/share".into(),
                name: None,
            },
            Root {
                uri: "file:///bad/%ff".into(),
                name: None,
            },
        ]);
        assert_eq!(
            roots.paths(),
            [
                PathBuf::from("/home/ada/my project"),
                PathBuf::from("/srv/data")
            ]
        );
    }

    #[test]
    fn paths_round_trip_through_uris() {
        let roots = Roots::from_paths(["/tmp/a b#c", "/work/x"]);
        assert_eq!(roots.roots()[0].uri, "file:///tmp/a%20b%23c");
        assert_eq!(roots.roots()[0].name.as_deref(), Some("a b#c"));
        assert_eq!(
            roots.paths(),
            [PathBuf::from("/tmp/a b#c"), PathBuf::from("/work/x")]
        );
    }
}
