//! The committed fuzz corpora (`fuzz/corpus.tar.gz`, a folder `corpus/<target>/` per target)
//! replayed through the fuzz targets' own bodies (`fuzz/src/targets.rs`), on stable: what the
//! fuzzer found interesting stays covered by every `cargo test`. The archive is read in place,
//! never unpacked. A panic anywhere (a request task included) fails the test.

#[path = "../../fuzz/src/targets.rs"]
mod targets;

use std::io::Read as _;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

static PANICS: AtomicUsize = AtomicUsize::new(0);
/// The tests replace the process's panic hook: one at a time.
static ONE: Mutex<()> = Mutex::new(());

/// The files of `corpus/<target>/` in `fuzz/corpus.tar.gz`: (name, bytes), by name.
fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus.tar.gz");
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let prefix = format!("corpus/{target}/");
    let mut files = Vec::new();
    for entry in archive.entries().expect("a tar archive") {
        let mut entry = entry.expect("an archive entry");
        let name = entry.path().expect("a path").to_string_lossy().into_owned();
        if entry.header().entry_type().is_file() && name.starts_with(&prefix) {
            let mut data = Vec::new();
            entry.read_to_end(&mut data).expect("reads");
            files.push((name, data));
        }
    }
    files.sort();
    files
}

/// Runs `body` on every file of `corpus/<target>/`; fails when one panics, even inside a
/// task the server spawned (which tokio would otherwise swallow).
fn replay(target: &str, body: fn(&[u8])) {
    let _one = ONE.lock().unwrap_or_else(|e| e.into_inner());
    let files = corpus(target);
    assert!(!files.is_empty(), "{target}: empty corpus");
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        eprintln!("{info}");
    }));
    let mut failed = Vec::new();
    for (name, data) in &files {
        let before = PANICS.load(Ordering::SeqCst);
        let caught = std::panic::catch_unwind(|| body(data)).is_err();
        if caught || PANICS.load(Ordering::SeqCst) != before {
            failed.push(name.clone());
        }
    }
    std::panic::set_hook(previous);
    assert!(
        failed.is_empty(),
        "{target}: {} input(s) panicked: {failed:#?}",
        failed.len()
    );
    eprintln!("{target}: {} inputs replayed", files.len());
}

#[test]
fn stdio() {
    replay("stdio", targets::stdio);
}

#[test]
fn request_state() {
    replay("request_state", targets::request_state);
}

#[test]
fn input_responses() {
    replay("input_responses", targets::input_responses);
}

#[test]
fn form_answer() {
    replay("form_answer", targets::form_answer);
}

#[test]
fn http_headers() {
    replay("http_headers", targets::http_headers);
}
