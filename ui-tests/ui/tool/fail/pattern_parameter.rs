/// Adds.
#[rondo_mcp::tool]
async fn add((a, b): (i64, i64)) -> i64 {
    a + b
}

fn main() {
    let _ = rondo_mcp::tools![add];
}
