use rondo_mcp::{Sample, sample};

#[sample(fallback = refuse, fallback = refuse)]
fn capital(country: &str) -> Sample {
    Sample::user(format!("What is the capital of {country}?"))
}

fn main() {}
