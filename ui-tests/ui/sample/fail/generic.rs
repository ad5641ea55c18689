use rondo_mcp::{Sample, sample};

#[sample(fallback = refuse)]
fn capital<T: std::fmt::Display>(country: T) -> Sample {
    Sample::user(format!("What is the capital of {country}?"))
}

fn main() {}
