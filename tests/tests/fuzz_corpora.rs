//! The committed fuzz corpora (`fuzz/corpus/<target>/`) replayed through the fuzz targets'
//! own bodies (`fuzz/src/targets.rs`), on stable: what the fuzzer found interesting stays
//! covered by every `cargo test`. A panic anywhere (a request task included) fails the test.

#[path = "../../fuzz/src/targets.rs"]
mod targets;

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

static PANICS: AtomicUsize = AtomicUsize::new(0);
/// The tests replace the process's panic hook: one at a time.
static ONE: Mutex<()> = Mutex::new(());

/// Runs `body` on every file of `fuzz/corpus/<target>/`; fails when one panics, even inside a
/// task the server spawned (which tokio would otherwise swallow).
fn replay(target: &str, body: fn(&[u8])) {
    let _one = ONE.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a corpus entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{target}: empty corpus");
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        eprintln!("{info}");
    }));
    let mut failed = Vec::new();
    for file in &files {
        let before = PANICS.load(Ordering::SeqCst);
        let data = std::fs::read(file).expect("reads");
        let caught = std::panic::catch_unwind(|| body(&data)).is_err();
        if caught || PANICS.load(Ordering::SeqCst) != before {
            failed.push(file.display().to_string());
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
