//! `skills!`: a `name` against the Agent Skills rules. The folder is `tests/ui/skills/fixtures/invalid_name`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/invalid_name");
}
