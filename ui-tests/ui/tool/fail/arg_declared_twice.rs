/// Searches.
#[rondo_mcp::tool]
async fn search(#[arg(rename = "text")] query: String, text: String) -> String {
    query + &text
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
