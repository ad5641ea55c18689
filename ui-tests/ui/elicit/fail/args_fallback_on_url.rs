use rondo_mcp::{Url, elicit};

#[elicit(url, fallback = args)]
fn pay(order: &str) -> Url {
    Url::new("Pay", format!("https://pay.example.com/{order}"))
}

fn main() {}
