/// Greets.
#[rondo_mcp::prompt(name = "greeting")]
fn hello(name: String) -> String {
    format!("hello {name}")
}

/// Greets, too.
#[rondo_mcp::prompt(name = "greeting")]
fn hi(name: String) -> String {
    format!("hi {name}")
}

fn main() {
    let _ = rondo_mcp::prompts![hello, hi];
}
