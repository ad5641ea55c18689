//! `skills!`: a link to nothing, which cannot be read (laid out by `tests/ui.rs`). The folder is `tests/ui/skills/fixtures/dangling_link`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/dangling_link");
}
