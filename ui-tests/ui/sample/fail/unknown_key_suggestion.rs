use rondo_mcp::{Sample, sample};

#[sample(fallbak = refuse)]
fn capital(country: &str) -> Sample {
    Sample::user(format!("What is the capital of {country}?"))
}

fn main() {}
