//! `skills!`: a file in no skill. The folder is `tests/ui/skills/fixtures/stray`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/stray");
}
