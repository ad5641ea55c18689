//! `skills!`: frontmatter without its closing `---`. The folder is `tests/ui/skills/fixtures/unclosed_frontmatter`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/unclosed_frontmatter");
}
