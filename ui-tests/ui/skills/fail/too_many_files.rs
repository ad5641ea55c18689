//! `skills!`: a skill of 513 files (laid out by `tests/ui.rs`). The folder is `tests/ui/skills/fixtures/too_many_files`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/too_many_files");
}
