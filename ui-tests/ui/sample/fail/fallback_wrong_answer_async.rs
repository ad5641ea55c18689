use rondo_mcp::{Sample, sample};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Picks {
    best: Vec<String>,
}

#[sample(fallback = rank_with_my_model)]
fn pick(flights: &[String]) -> Sample<Picks> {
    Sample::user(flights.join("\n"))
}

async fn rank_with_my_model(flights: &[String]) -> String {
    flights.join(", ")
}

fn main() {}
