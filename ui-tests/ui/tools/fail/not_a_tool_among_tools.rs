// One mistake, one error: the entry without `#[tool]` fails the set's bound, and the duplicate
// checks of the entries after it skip it rather than failing again.

/// Adds.
#[rondo_mcp::tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn search(query: String) -> String {
    query
}

/// Multiplies.
#[rondo_mcp::tool]
fn mul(a: i64, b: i64) -> i64 {
    a * b
}

fn main() {
    let _ = rondo_mcp::tools![add, search, mul];
}
