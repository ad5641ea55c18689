use rondo_mcp::{Sample, sample};

#[sample]
fn capital(country: &str) -> Sample {
    Sample::user(format!("What is the capital of {country}?"))
}

fn main() {}
