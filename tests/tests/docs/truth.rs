//! The documents stay true to the tree. Every backticked repository path in a Markdown file or
//! in a doc comment of the published crates exists, and every `cargo` command in the README and
//! CONTRIBUTING names a package, test target, example or bench that exists. A path counts as a
//! repository path when its first part is a top-level folder of the repository (then it must
//! be there, from the root), or, in a Markdown document, when it names a file (it ends in a file
//! extension): then some path of the repository must end with it (design.md names
//! `http/service.rs` so, inside a section about the runtime). A skill's `SKILL.md` names its own
//! files and is left out.

use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is inside the repository")
        .to_path_buf()
}

/// Folders never read: build output, installed packages, generated corpora.
const SKIP: &[&str] = &[
    "target",
    "node_modules",
    ".git",
    "corpus",
    ".conformance-results",
    "artifacts",
];

/// Every file under `dir` whose name ends with `ext`.
fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !SKIP.contains(&name.as_str()) {
                files(&path, ext, out);
            }
        } else if name.ends_with(ext) {
            out.push(path);
        }
    }
}

/// The inline code spans of `text` (between single backticks), fenced blocks left out.
fn code_spans(text: &str) -> Vec<String> {
    let mut spans = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 1 {
                spans.push(part.to_owned());
            }
        }
    }
    spans
}

/// The file extensions a path that names a file ends in.
const EXTENSIONS: &[&str] = &[
    "rs", "md", "toml", "sh", "py", "mjs", "json", "yml", "yaml", "conf", "lock", "txt",
];

/// `span` as a path to check, if it is one: no spaces or placeholders, a `/` in it, and a
/// line number, anchor or trailing `/` taken off.
fn as_path(span: &str) -> Option<&str> {
    let span = span.trim();
    if span.is_empty()
        || span.contains(char::is_whitespace)
        || span.contains(['*', '<', '{', '$', '…', '(', '=', '"', '\'', '|', ','])
        || span.contains("..")
        || span.contains("://")
        || span.starts_with('/')
        || span.starts_with('-')
        || !span.contains('/')
    {
        return None;
    }
    let span = span.split(['#', ':']).next()?;
    Some(span.trim_end_matches('/'))
}

/// Whether `path` exists: from the root when its first part is a top-level folder; otherwise
/// (a file named in a Markdown document, relative to its section's crate) as the end of some
/// path in the repository. `None` when it is not a repository path.
fn exists(
    root: &Path,
    top: &BTreeSet<String>,
    tree: &[String],
    md: bool,
    path: &str,
) -> Option<bool> {
    let first = path.split('/').next()?;
    if top.contains(first) {
        return Some(root.join(path).exists());
    }
    let ext = path.rsplit_once('.').map(|(_, e)| e)?;
    if !md || !EXTENSIONS.contains(&ext) || path.contains("::") {
        return None;
    }
    let tail = format!("/{path}");
    Some(tree.iter().any(|p| p.ends_with(&tail)))
}

/// Every file and folder of the repository, as `/`-joined paths from the root.
fn tree(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if SKIP.contains(&name.as_str()) {
            continue;
        }
        if let Ok(rel) = path.strip_prefix(root) {
            out.push(format!("/{}", rel.to_string_lossy()));
        }
        if path.is_dir() {
            tree(root, &path, out);
        }
    }
}

/// The doc comment lines (`//!`, `///`) of a Rust file, as one text.
fn doc_comments(text: &str) -> String {
    text.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            l.strip_prefix("//!").or_else(|| l.strip_prefix("///"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_backticked_repository_path_exists() {
    let root = root();
    let top: BTreeSet<String> = std::fs::read_dir(&root)
        .expect("the root reads")
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && n != "target")
        .collect();
    let mut docs = Vec::new();
    files(&root, ".md", &mut docs);
    let mut sources = Vec::new();
    for krate in ["runtime/src", "macros/src", "skill-format/src"] {
        files(&root.join(krate), ".rs", &mut sources);
    }
    let mut all = Vec::new();
    tree(&root, &root, &mut all);
    // A skill's own files are named relative to its folder (they are data, not documents).
    docs.retain(|d| !d.ends_with("SKILL.md"));
    let mut checked = 0;
    let mut stale = Vec::new();
    for (file, is_md) in docs
        .iter()
        .map(|f| (f, true))
        .chain(sources.iter().map(|f| (f, false)))
    {
        let bytes = std::fs::read(file).expect("a document reads");
        let text = String::from_utf8_lossy(&bytes);
        let text = if is_md {
            text.into_owned()
        } else {
            doc_comments(&text)
        };
        for span in code_spans(&text) {
            let Some(path) = as_path(&span) else { continue };
            match exists(&root, &top, &all, is_md, path) {
                Some(true) => checked += 1,
                Some(false) => {
                    let at = file.strip_prefix(&root).unwrap_or(file);
                    stale.push(format!("{}: `{span}`", at.display()));
                }
                None => {}
            }
        }
    }
    assert!(
        stale.is_empty(),
        "{} backticked paths name nothing in the repository (checked {checked} that do):\n{}",
        stale.len(),
        stale.join("\n")
    );
    assert!(checked > 100, "only {checked} paths were found to check");
}

/// Package name -> (target kind -> names), from `cargo metadata` of a manifest.
type Targets = HashMap<String, HashMap<String, BTreeSet<String>>>;

fn targets(manifest: &Path, into: &mut Targets) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .arg("--manifest-path")
        .arg(manifest)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata is JSON");
    for p in meta["packages"].as_array().into_iter().flatten() {
        let kinds = into
            .entry(p["name"].as_str().unwrap_or_default().into())
            .or_default();
        for t in p["targets"].as_array().into_iter().flatten() {
            for k in t["kind"].as_array().into_iter().flatten() {
                let name = t["name"].as_str().unwrap_or_default().to_owned();
                kinds
                    .entry(k.as_str().unwrap_or_default().into())
                    .or_default()
                    .insert(name);
            }
        }
    }
}

/// What one `cargo` command line names that does not exist.
fn wrong_in(line: &str, all: &Targets) -> Vec<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(start) = words.iter().position(|w| *w == "cargo") else {
        return Vec::new();
    };
    let words = &words[start..];
    let value = |flag: &str| {
        words
            .windows(2)
            .filter(|w| w[0] == flag)
            .map(|w| w[1].trim_matches(['`', ',', '(', ')', ';', '.']))
            .collect::<Vec<_>>()
    };
    let mut wrong = Vec::new();
    let packages: Vec<&str> = value("-p").into_iter().chain(value("--package")).collect();
    for p in &packages {
        if !all.contains_key(*p) {
            wrong.push(format!("package `{p}`"));
        }
    }
    for (flag, kind) in [
        ("--test", "test"),
        ("--example", "example"),
        ("--bench", "bench"),
    ] {
        for name in value(flag) {
            if name.starts_with('<') {
                continue;
            }
            let found = all
                .iter()
                .filter(|(p, _)| packages.is_empty() || packages.contains(&p.as_str()))
                .any(|(_, kinds)| kinds.get(kind).is_some_and(|n| n.contains(name)));
            if !found {
                wrong.push(format!("{kind} target `{name}`"));
            }
        }
    }
    wrong
}

#[test]
fn every_cargo_command_of_the_readme_and_contributing_names_what_exists() {
    let root = root();
    let mut all = Targets::new();
    targets(&root.join("Cargo.toml"), &mut all);
    targets(&root.join("bench/Cargo.toml"), &mut all);
    let mut wrong = Vec::new();
    let mut commands = 0;
    for doc in ["README.md", "CONTRIBUTING.md"] {
        let text = std::fs::read_to_string(root.join(doc)).expect("the document reads");
        for line in text.lines().filter(|l| l.contains("cargo ")) {
            commands += 1;
            for w in wrong_in(line, &all) {
                wrong.push(format!("{doc}: {w} in `{}`", line.trim()));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(commands >= 5, "only {commands} cargo commands were read");
}

#[test]
fn the_checks_find_what_they_are_for() {
    let mut all = Targets::new();
    let mut kinds = HashMap::new();
    kinds.insert("test".to_owned(), BTreeSet::from(["main".to_owned()]));
    all.insert("rondo-tests".to_owned(), kinds);
    assert_eq!(
        wrong_in("cargo test -p rondo-tests --test ui", &all),
        ["test target `ui`"]
    );
    assert!(wrong_in("cargo test -p rondo-tests --test main", &all).is_empty());
    assert_eq!(wrong_in("cargo test -p nope", &all), ["package `nope`"]);
    assert_eq!(as_path("tests/ui/elicit:12"), Some("tests/ui/elicit"));
    assert_eq!(as_path("a b/c"), None);
    assert_eq!(as_path("`x`"), None);
    let root = root();
    let top = BTreeSet::from(["tests".to_owned()]);
    let tree = vec!["/runtime/src/http/service.rs".to_owned()];
    let check = |md, path| exists(&root, &top, &tree, md, path);
    assert_eq!(check(true, "tests/ui"), Some(false));
    assert_eq!(check(true, "tests/tests"), Some(true));
    assert_eq!(check(true, "http/service.rs"), Some(true));
    assert_eq!(check(true, "dispatch/nothing.rs"), Some(false));
    assert_eq!(check(false, "dispatch/nothing.rs"), None);
}

/// The blocks of a Markdown text: (the info string after the fence, the lines inside).
fn fenced(text: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, Vec<&str>)> = None;
    for line in text.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.trim().to_owned(), Vec::new())),
            (Some(_), Some(_)) => {
                let (info, lines) = open.take().expect("open");
                blocks.push((info, lines.join("\n")));
            }
            (Some((_, lines)), None) => lines.push(line),
            (None, None) => {}
        }
    }
    blocks
}

/// The README's `compile_fail` example fails for the reason it states: its source is a UI test
/// (`ui-tests/ui/<macro>/fail/`) and the error shown after it is that test's expected output,
/// which the UI test checks against the compiler's, message and span.
#[test]
fn the_readme_s_compile_error_is_its_ui_test_s() {
    let root = root();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("the README reads");
    let blocks = fenced(&readme);
    let at = blocks
        .iter()
        .position(|(info, _)| info.contains("compile_fail"))
        .expect("the README shows a compile error");
    let (source, (_, shown)) = (&blocks[at].1, &blocks[at + 1]);
    let location = shown
        .lines()
        .find_map(|l| l.trim().strip_prefix("--> "))
        .expect("the error names its file");
    let file = location.split(':').next().expect("a file");
    let ui = root.join("ui-tests").join(file);
    let test = std::fs::read_to_string(&ui).expect("the UI test the error names");
    assert!(
        test.contains(source.trim()),
        "the README's example is not {}",
        ui.display()
    );
    let stderr = std::fs::read_to_string(ui.with_extension("stderr")).expect("its .stderr");
    assert_eq!(
        shown.trim(),
        stderr.trim(),
        "the README's error is not {file}'s"
    );
}

/// A file's code without its `//!` header (and the blank lines after it).
fn without_header(file: &str) -> &str {
    let mut rest = file;
    while let Some((line, after)) = rest.split_once('\n') {
        if !(line.starts_with("//!") || line.trim().is_empty()) {
            break;
        }
        rest = after;
    }
    rest.trim_end()
}

/// The guide's copies of the examples are the examples: each block after a line
/// `<!-- the file <path>, after its `//!` header -->` is that file, word for word, so the page
/// shows what `cargo run` runs (and the doctest compiles the same code). design.md §30 says
/// why the page holds a copy rather than including the file.
#[test]
fn the_guide_s_copies_of_the_examples_are_the_examples() {
    let root = root();
    let page = root.join("runtime/guide/getting_started.md");
    let text = std::fs::read_to_string(&page).expect("the page reads");
    let mut copies = 0;
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(path) = line
            .strip_prefix("<!-- the file ")
            .and_then(|l| l.strip_suffix(", after its `//!` header -->"))
        else {
            continue;
        };
        let fence = lines.next().expect("a block follows the marker");
        assert!(fence.starts_with("```rust"), "{path}: no Rust block after");
        let block: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
        let file = std::fs::read_to_string(root.join(path)).expect(path);
        assert_eq!(
            block.join("\n"),
            without_header(&file),
            "runtime/guide/getting_started.md's copy of {path} differs from the file: copy the file"
        );
        copies += 1;
    }
    assert_eq!(copies, 2, "the page copies examples/hello and examples/ask");
}
