//! `skills!`: a `metadata` key under `io.modelcontextprotocol/`. The folder is `tests/ui/skills/fixtures/reserved_metadata`, which `tests/ui.rs`
//! copies below the target's `tmp` folder: `../../../tmp` from trybuild's project.

fn main() {
    let _ = rondo_mcp::skills!("../../../tmp/skills-ui/reserved_metadata");
}
