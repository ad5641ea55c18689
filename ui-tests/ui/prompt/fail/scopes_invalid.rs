/// An empty list and a bad element on a prompt.
#[rondo_mcp::prompt(scopes = [])]
async fn greeting() -> String {
    String::new()
}

/// A scope with a backslash on a prompt.
#[rondo_mcp::prompt(scopes = [r"a\b", 7])]
async fn farewell() -> String {
    String::new()
}

fn main() {
    let _ = rondo_mcp::prompts![greeting, farewell];
}
