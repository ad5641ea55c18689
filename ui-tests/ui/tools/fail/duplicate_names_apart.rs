// A name repeated far from its first use, among others: the error is at the later entry and
// names the first (the check sorts the names, so it finds repeats that are not neighbours).

/// Adds.
#[rondo_mcp::tool]
async fn add() -> String {
    String::new()
}

/// Searches.
#[rondo_mcp::tool(name = "search")]
async fn search(query: String) -> String {
    query
}

/// Multiplies.
#[rondo_mcp::tool]
async fn mul() -> String {
    String::new()
}

/// Subtracts.
#[rondo_mcp::tool]
async fn sub() -> String {
    String::new()
}

mod found {
    /// Also searches.
    #[rondo_mcp::tool(name = "search")]
    pub async fn find(query: String) -> String {
        query
    }
}

fn main() {
    let _ = rondo_mcp::tools![add, search, mul, sub, found::find];
}
