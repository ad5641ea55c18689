//! `skills!`: a `description` over 1024 characters. The folder is `tests/ui/skills/fixtures/long_description`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/long_description");
}
