//! `skills!`: a symbolic link out of its skill's folder (laid out by `tests/ui.rs`). The folder is `tests/ui/skills/fixtures/link_leaves_skill`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/link_leaves_skill");
}
