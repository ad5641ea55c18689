/// Searches.
#[rondo_mcp::tool]
async fn search(#[arg(descripton = "What to look for")] query: String) -> String {
    query
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
