use rondo_mcp::{Sample, sample};

struct Atlas;

impl Atlas {
    #[sample(fallback = refuse)]
    fn capital(&self, country: &str) -> Sample {
        Sample::user(format!("What is the capital of {country}?"))
    }
}

fn main() {}
