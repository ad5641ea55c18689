//! `skills!`: a `crate = ..` path that is relative.

fn main() {
    let _ = rondo_mcp::skills!(crate = rondo_mcp; "../../../tmp/skills-ui/good");
}
