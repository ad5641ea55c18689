//! `skills!`: no `name`. The folder is `tests/ui/skills/fixtures/missing_name`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/missing_name");
}
