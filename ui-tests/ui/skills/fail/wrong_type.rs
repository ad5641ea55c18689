//! `skills!`: a `description` that is not text. The folder is `tests/ui/skills/fixtures/wrong_type`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/wrong_type");
}
