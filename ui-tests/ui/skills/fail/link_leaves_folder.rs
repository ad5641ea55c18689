//! `skills!`: a symbolic link out of the skills folder (laid out by `tests/ui.rs`). The folder is `tests/ui/skills/fixtures/link_leaves_folder`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/link_leaves_folder");
}
