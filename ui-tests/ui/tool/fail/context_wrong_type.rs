/// Searches.
#[rondo_mcp::tool]
async fn search(cx: &String, query: String) -> String {
    format!("{cx}{query}")
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
