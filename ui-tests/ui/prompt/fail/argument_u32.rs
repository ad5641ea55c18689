/// Greets.
#[rondo_mcp::prompt]
fn greeting(times: u32) -> String {
    "hello ".repeat(times as usize)
}

fn main() {
    let _ = rondo_mcp::prompts![greeting];
}
