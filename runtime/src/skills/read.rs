//! `resources/read` of a skill file: the bytes its skill's manifest describes, never others.
//!
//! An embedded file (`skills!`) is the bytes compiled in. A file of a folder read at start
//! ([`Skills::from_dir`](super::Skills::from_dir)) is read again on every request, on the
//! blocking pool, and served only if it still is what the manifest states: its path still
//! resolves inside its skill's folder (it was not replaced by a link that leaves), it is a
//! regular file, and its size and SHA-256 are the manifest's. Anything else is refused with
//! `-32603` saying the file changed since the server started, so a host never gets bytes
//! whose digest its entry does not state (docs/design.md, "Skills": a server restart
//! publishes the new version). At most the manifest's size plus one byte is read.

use crate::protocol::{Error, ReadResourceResult, ResourceContents};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::json;
use sha2::{Digest as _, Sha256};
use std::borrow::Cow;
use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};

/// One file, as `resources/read` serves it.
#[derive(Debug, Clone)]
pub(crate) struct Served {
    /// Its MIME type.
    pub mime_type: String,
    /// The size and digest its skills' manifests state, which every read is held to.
    pub size: u64,
    /// `sha256:` and 64 hex digits.
    pub digest: String,
    /// Where its bytes come from.
    pub source: Source,
}

/// Where a skill file's bytes come from.
#[derive(Debug, Clone)]
pub(crate) enum Source {
    /// Compiled into the program.
    Embedded(&'static [u8]),
    /// On disk at `path`, which must resolve inside `within` (its skill's canonical folder).
    Disk {
        /// Where it was found at start.
        path: PathBuf,
        /// Its innermost skill's canonical folder.
        within: PathBuf,
    },
}

/// The `resources/read` result of the file at `uri`: text when its bytes are UTF-8 (the text
/// is those bytes), a base64 blob otherwise.
pub(crate) async fn read(uri: String, served: Served) -> Result<ReadResourceResult, Error> {
    let bytes: Cow<'static, [u8]> = match served.source {
        Source::Embedded(bytes) => Cow::Borrowed(bytes),
        Source::Disk { path, within } => {
            let (size, digest) = (served.size, served.digest.clone());
            let read = move || read_checked(&path, &within, size, &digest);
            let read = tokio::task::spawn_blocking(read)
                .await
                .map_err(|_| Error::internal("Reading a skill file failed"))?;
            Cow::Owned(read.map_err(|why| changed(&uri, why))?)
        }
    };
    let mime = served.mime_type;
    let contents = match std::str::from_utf8(&bytes) {
        Ok(text) => ResourceContents::text(uri, mime, text),
        Err(_) => ResourceContents::blob(uri, mime, STANDARD.encode(&bytes)),
    };
    Ok(ReadResourceResult {
        contents: vec![contents],
    })
}

/// The bytes at `path` if they are still what the manifest states.
fn read_checked(path: &Path, within: &Path, size: u64, digest: &str) -> Result<Vec<u8>, String> {
    let resolved = fs::canonicalize(path).map_err(|e| e.to_string())?;
    if !resolved.starts_with(within) {
        return Err("it now resolves outside its skill's folder".into());
    }
    let meta = fs::metadata(&resolved).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("it is no longer a file".into());
    }
    if meta.len() != size {
        return Err(format!("it is {} bytes, not {size}", meta.len()));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    fs::File::open(&resolved)
        .and_then(|f| f.take(size.saturating_add(1)).read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 != size || sha256(&bytes) != digest {
        return Err("its bytes are not the ones its digest was taken of".into());
    }
    Ok(bytes)
}

/// `sha256:` and the lowercase hex of the SHA-256 of `bytes`.
pub(crate) fn sha256(bytes: &[u8]) -> String {
    format!("sha256:{}", crate::canonical::hex(&Sha256::digest(bytes)))
}

/// The refusal of a file that is not what its manifest states, logged for the operator.
fn changed(uri: &str, why: String) -> Error {
    tracing::warn!(
        uri,
        why,
        "a skill file changed on disk since the server started"
    );
    Error::internal(format!(
        "The skill file {uri} changed on disk since the server started ({why}); \
         the server serves a skill's files only as its manifest states them: restart it to serve the new version"
    ))
    .with_data(json!({ "uri": uri }))
}
