fn review(code: String) -> String {
    code
}

fn main() {
    let _ = rondo_mcp::prompts![review];
}
