/// Greets.
#[rondo_mcp::prompt(name = "say hello")]
fn greeting(name: String) -> String {
    format!("hello {name}")
}

fn main() {
    let _ = rondo_mcp::prompts![greeting];
}
