//! `skills!`: frontmatter JSON cannot carry (NaN). The folder is `tests/ui/skills/fixtures/not_json`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/not_json");
}
