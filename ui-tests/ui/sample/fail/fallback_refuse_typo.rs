use rondo_mcp::{Sample, sample};

#[sample(fallback = refused)]
fn capital(country: &str) -> Sample {
    Sample::user(format!("What is the capital of {country}?"))
}

fn main() {}
