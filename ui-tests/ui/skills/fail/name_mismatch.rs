//! `skills!`: a `name` other than its folder's. The folder is `tests/ui/skills/fixtures/name_mismatch`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/name_mismatch");
}
