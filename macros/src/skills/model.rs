//! The checked folder: read with the runtime's rules (`rondo-mcp-skill-format`) from the path
//! the literal names, below `CARGO_MANIFEST_DIR` unless absolute. Every problem found is an
//! error at the literal (the user wrote no other token about the folder), stating the rule and
//! the fix; the digests and sizes are taken here, once.

use super::parse::SkillsArgs;
use crate::common::args::crate_path;
use crate::diag::err_on;
use darling::error::Accumulator;
use rondo_mcp_skill_format::{Bundle, Limits, ProblemKind, load};
use std::path::{Path, PathBuf};
use syn::LitStr;

/// What the expansion embeds.
pub struct Embedded {
    /// Where the runtime is (checked absolute).
    pub krate: syn::Path,
    /// How the expansion names the folder in `include_bytes!`.
    pub folder: Folder,
    /// The skills, in path order.
    pub skills: Vec<EmbeddedSkill>,
    /// Every file, in path order.
    pub files: Vec<EmbeddedFile>,
    /// Every folder below the skills folder, one name per segment.
    pub folders: Vec<Vec<String>>,
}

/// The skills folder as the expansion names it.
pub enum Folder {
    /// Below `env!("CARGO_MANIFEST_DIR")`, as written (so the expansion is the same on every
    /// machine).
    Relative(String),
    /// An absolute path, as written.
    Absolute(String),
}

/// One skill.
pub struct EmbeddedSkill {
    /// Its folder, one name per segment.
    pub path: Vec<String>,
    /// Its frontmatter, as JSON text.
    pub frontmatter: String,
    /// Its files, as indices into [`Embedded::files`]: its `SKILL.md` first.
    pub files: Vec<usize>,
}

/// One file.
pub struct EmbeddedFile {
    /// Its path below the skills folder, one name per segment.
    pub path: Vec<String>,
    /// Its size, which the expansion checks `include_bytes!` against.
    pub size: u64,
    /// `sha256:` and 64 hex digits.
    pub digest: String,
    /// Its MIME type.
    pub mime_type: String,
}

/// Reads and checks the folder; `None` when it has problems (each one reported).
pub fn model(args: SkillsArgs, acc: &mut Accumulator) -> Option<Embedded> {
    let krate = crate_path(args.krate, acc);
    let lit = &args.folder;
    let written = lit.value();
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR");
    // Without cargo (rustc run by hand) there is no crate folder: the path is the compiler's
    // working directory's, written out absolute for `include_bytes!`.
    let folder = match manifest_dir {
        _ if Path::new(&written).is_absolute() => Folder::Absolute(written.clone()),
        Some(_) => Folder::Relative(written.clone()),
        None => {
            let cwd = std::env::current_dir().unwrap_or_default();
            Folder::Absolute(cwd.join(&written).to_string_lossy().into_owned())
        }
    };
    let root = match (&folder, manifest_dir) {
        (Folder::Relative(p), Some(dir)) => PathBuf::from(dir).join(p),
        (Folder::Relative(p), None) | (Folder::Absolute(p), _) => PathBuf::from(p),
    };
    match load(&root, &Limits::default()) {
        Ok(bundle) => Some(embedded(krate, folder, bundle)),
        Err(problems) => {
            for p in problems {
                let msg = match &p.kind {
                    ProblemKind::Root(e) => root_message(lit, e),
                    _ => p.to_string(),
                };
                acc.push(err_on(lit, msg));
            }
            None
        }
    }
}

/// The message when the folder itself cannot be read: where a relative path is looked for.
fn root_message(lit: &LitStr, e: &std::io::Error) -> String {
    format!(
        "cannot read the skills folder `{}`: {e}; the path is relative to the crate's folder, where its Cargo.toml is",
        lit.value()
    )
}

/// The model of a checked folder.
fn embedded(krate: syn::Path, folder: Folder, bundle: Bundle) -> Embedded {
    let skills = bundle
        .skills
        .into_iter()
        .map(|s| EmbeddedSkill {
            path: s.path,
            frontmatter: serde_json::Value::Object(s.frontmatter).to_string(),
            files: s.files,
        })
        .collect();
    let files = bundle
        .files
        .into_iter()
        .map(|f| EmbeddedFile {
            path: f.path,
            size: f.size,
            digest: f.digest,
            mime_type: f.mime_type,
        })
        .collect();
    Embedded {
        krate,
        folder,
        skills,
        files,
        folders: bundle.folders,
    }
}
