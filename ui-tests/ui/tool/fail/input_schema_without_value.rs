/// Searches.
#[rondo_mcp::tool(input_schema)]
async fn search() -> String {
    String::new()
}

fn main() {
    let _ = rondo_mcp::tools![search];
}
