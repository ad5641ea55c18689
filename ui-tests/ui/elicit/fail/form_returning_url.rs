use rondo_mcp::{Url, elicit};

#[elicit(form, fallback = refuse)]
fn pay(order: &str) -> Url {
    Url::new("Pay", format!("https://pay.example.com/{order}"))
}

fn main() {}
