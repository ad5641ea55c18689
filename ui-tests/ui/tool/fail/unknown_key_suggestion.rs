#[rondo_mcp::tool(descripton = "Searches")]
async fn search(query: String) -> String {
    query
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
