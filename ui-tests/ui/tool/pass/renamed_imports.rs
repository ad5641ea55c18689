//! The macros work under other names.

use rondo_mcp::tool as mcp_tool;
use rondo_mcp::tools as mcp_tools;

/// Adds two integers.
#[mcp_tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {
    let _ = mcp_tools![add];
}
