use rondo_mcp::{Sample, sample};

#[sample(fallback = known_capital)]
fn capital(country: &str) -> Sample {
    Sample::user(format!("What is the capital of {country}?"))
}

fn known_capital(code: u32) -> String {
    code.to_string()
}

fn main() {}
