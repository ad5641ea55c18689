use rondo_mcp::{Sample, sample};

struct Flight {
    number: String,
}

#[sample(fallback = refuse)]
fn describe(flight: Flight) -> Sample {
    Sample::user(format!("Describe flight {}.", flight.number))
}

fn main() {}
