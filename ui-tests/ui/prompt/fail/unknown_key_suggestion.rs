#[rondo_mcp::prompt(descripton = "Greets")]
fn greeting(name: String) -> String {
    format!("hello {name}")
}

fn main() {
    let _ = rondo_mcp::prompts![greeting];
}
