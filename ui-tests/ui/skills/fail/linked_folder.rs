//! `skills!`: a symbolic link to a folder inside the skill (laid out by `tests/ui.rs`). The folder is `tests/ui/skills/fixtures/linked_folder`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/linked_folder");
}
