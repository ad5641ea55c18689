//! `skills!`: a folder that does not exist. The folder is `tests/ui/skills/fixtures/missing_folder`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/missing_folder");
}
