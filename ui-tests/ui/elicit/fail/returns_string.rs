use rondo_mcp::elicit;

#[elicit(form, fallback = refuse)]
fn approve(item: &str) -> String {
    format!("Buy {item}?")
}

fn main() {}
