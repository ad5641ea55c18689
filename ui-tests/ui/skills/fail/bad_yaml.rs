//! `skills!`: frontmatter that is not YAML. The folder is `tests/ui/skills/fixtures/bad_yaml`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/bad_yaml");
}
