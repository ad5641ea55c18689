#[rondo_mcp::prompt]
fn greeting(name: String) -> String {
    format!("hello {name}")
}

fn main() {
    let _ = rondo_mcp::prompts![greeting];
}
