//! `skills!`: a `SKILL.md` without frontmatter. The folder is `tests/ui/skills/fixtures/no_frontmatter`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/no_frontmatter");
}
