/// Greets.
#[rondo_mcp::prompt(crate = rondo_mcp)]
fn greeting(name: String) -> String {
    format!("hello {name}")
}

fn main() {
    let _ = rondo_mcp::prompts![greeting];
}
