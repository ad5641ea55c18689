//! A plain `fn` is a tool too.

use rondo_mcp::Cx;

/// Doubles an integer.
#[rondo_mcp::tool]
fn double(n: i64) -> i64 {
    n * 2
}

/// Reports the revision (a lifetime parameter is not generic in the way that matters).
#[rondo_mcp::tool]
fn revision<'a>(cx: &'a Cx) -> String {
    format!("{:?}", cx.revision())
}

fn main() {
    let _ = rondo_mcp::tools![double, revision];
}
