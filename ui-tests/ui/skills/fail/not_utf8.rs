//! `skills!`: a `SKILL.md` that is not UTF-8. The folder is `tests/ui/skills/fixtures/not_utf8`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/not_utf8");
}
