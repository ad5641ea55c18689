//! `skills!`: frontmatter that is not a mapping. The folder is `tests/ui/skills/fixtures/not_a_mapping`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/not_a_mapping");
}
