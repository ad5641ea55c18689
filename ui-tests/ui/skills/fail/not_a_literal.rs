//! `skills!`: a path that is not a string literal.

fn main() {
    let folder = "skills";
    let _ = rondo_mcp::skills!(folder);
}
