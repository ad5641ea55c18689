/// Greets.
#[rondo_mcp::prompt]
fn greeting(#[arg(desc = "Who")] name: String) -> String {
    format!("hello {name}")
}

fn main() {
    let _ = rondo_mcp::prompts![greeting];
}
