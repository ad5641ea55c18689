use rondo_mcp::{Sample, sample};

struct Picks {
    best: Vec<String>,
}

#[sample(fallback = refuse)]
fn pick(flights: &[String]) -> Sample<Picks> {
    Sample::user(flights.join("\n"))
}

fn main() {}
