// Two mistakes, two errors, and nothing more: each failing `#[tool]` leaves a stub named after its
// function, so the list neither fails to find them nor reports them as duplicates of each other.

#[rondo_mcp::tool]
async fn search(query: String) -> String {
    query
}

#[rondo_mcp::tool]
async fn find(query: String) -> String {
    query
}

fn main() {
    let _ = rondo_mcp::tools![search, find];
}
