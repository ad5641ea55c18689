use rondo_mcp::{Url, sample};

#[sample(fallback = refuse)]
fn pay(order: &str) -> Url {
    Url::new("Pay", format!("https://pay.example.com/{order}"))
}

fn main() {}
