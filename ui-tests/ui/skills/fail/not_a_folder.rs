//! `skills!`: a path to a file, not a folder. The folder is `tests/ui/skills/fixtures/not_a_folder`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/not_a_folder");
}
