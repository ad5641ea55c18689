use rondo_mcp::sample;

#[sample(fallback = refuse)]
fn capital(country: &str) -> String {
    format!("What is the capital of {country}?")
}

fn main() {}
