/// Greets.
#[rondo_mcp::prompt]
fn greeting(name: String) -> u32 {
    name.len() as u32
}

fn main() {
    let _ = rondo_mcp::prompts![greeting];
}
