use rondo_mcp::{Sample, sample};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Picks {
    best: Vec<String>,
}

#[sample(fallback = rank_locally)]
fn pick(flights: &[String]) -> Sample<Picks> {
    Sample::user(flights.join("\n"))
}

fn rank_locally(flights: &[String]) -> Vec<String> {
    flights.to_vec()
}

fn main() {}
