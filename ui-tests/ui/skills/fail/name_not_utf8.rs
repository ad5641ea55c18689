//! `skills!`: a file name that is not UTF-8 (laid out by `tests/ui.rs`). The folder is `tests/ui/skills/fixtures/name_not_utf8`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/name_not_utf8");
}
