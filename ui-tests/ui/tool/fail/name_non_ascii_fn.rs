/// Orders a coffee.
#[rondo_mcp::tool]
async fn café() -> String {
    "espresso".to_owned()
}

fn main() {
    let _ = rondo_mcp::tools![café];
}
