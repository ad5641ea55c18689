//! `skills!`: a skill whose files total over 16 MiB (laid out by `tests/ui.rs`). The folder is `tests/ui/skills/fixtures/skill_too_large`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/skill_too_large");
}
